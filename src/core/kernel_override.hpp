// Internal: which sm_90 kernel runs a GEMM. The library picks by shape (Auto); tests and
// benchmarks force one to compare the kernels on the same shape.
#pragma once

namespace mxgemm::detail {

// Skinny applies to at most 16 activation rows (more, or a weight-only activation it cannot
// read in place, run the streaming kernel); Auto picks it for small weights only.
enum class Sm90Kernel { Auto, Tiled, Streaming, Skinny };

// For GEMMs issued from the calling thread from now on; returns the previous choice.
Sm90Kernel set_sm90_kernel(Sm90Kernel kernel);
Sm90Kernel sm90_kernel();

// The streaming kernel's early fixup of a tile in two stream-K parts (stream_gemm_kernel.cuh):
// Auto takes it when the other part is already in, Never always publishes first (the plain
// path), Always waits for the other part and takes it. Never and Always are for tests: the two
// paths must give the same bits.
enum class StreamEarlyFixup { Never, Auto, Always };

StreamEarlyFixup set_stream_early_fixup(StreamEarlyFixup mode);
StreamEarlyFixup stream_early_fixup();

// The streaming kernel's K split among a CTA's math warpgroups (StreamGemmConfig::kSplitK: four
// up to 32 activation rows, two for 33..64): Auto where its 64-row tiles about fill the SMs
// (up to 32 rows), alone or in clusters of CTAs that split each tile's K too
// (split_k_cluster_ctas; for 33..64 rows the clusters only, where
// two_warpgroup_split_preferred), Never, Always wherever it can run (one activation tile of up
// to 64 rows, K >= 2048), one tile a CTA, or Clusters wherever the clusters can run (as many
// CTAs a tile as fit the SMs, up to 8, whatever the fill): tests compare them with the other
// schedules. The 64-row values form's 128-row tiles in clusters for 33..64 MXFP8 rows
// (wide_cluster_ctas) run where the split reduction would on a small weight (Auto, Always and
// Clusters where those did not run), not at all with Never, and wherever they can run with
// WideClusters.
enum class StreamSplitK { Never, Auto, Always, Clusters, WideClusters };

StreamSplitK set_stream_split_k(StreamSplitK mode);
StreamSplitK stream_split_k();

// The streaming kernel's values form for E4M3 weights (stream_gemm_kernel.cuh): Auto runs the
// fp16 form (each activation row at its own power of two, kF16X) for E4M3 MXFP8 activations and
// for BF16 ones where it measured faster (stream_gemm_sm90.cu's bf16_rows_in_f16), F16 for BF16
// ones wherever it can run (more than 16 rows TMA could read in place), Bf16 the bf16 values
// form, Bf16Permuted the bf16 values form with BF16 activations of more than 16 rows copied into
// the permuted K order first (launch_activation_bf16_permuted_prepass; MXFP8 ones as Bf16; Auto
// takes it where weight_only_bf16_permuted_preferred says), so that tests and the benchmark can
// compare them on the same shapes.
enum class StreamMxValues { Auto, Bf16, F16, Bf16Permuted };

StreamMxValues set_stream_mx_values(StreamMxValues form);
StreamMxValues stream_mx_values();

// The streaming kernel's 192-row activation tiles (wgmma n = 192) where the 256-row tiles would
// run: Auto where width_192_taken (as many tiles as of 256 rows), Never the 256-row tiles (the
// choice before sessions 46 and 47), Always at every M above 128 (also where they need more tiles than 256
// rows, which lost: session 47), so that the benchmark compares them.
enum class StreamWidth192 { Auto, Never, Always };

StreamWidth192 set_stream_width_192(StreamWidth192 mode);
StreamWidth192 stream_width_192();

// The MXFP8 pre-pass's activation in the workspace: Auto pads it to whole tiles where
// workspace_activation_rows says (a last tile of at most half its rows), so that the last tile's
// TMA boxes stay within the tensor; Never keeps M rows (TMA fills the box past them with zeros).
enum class StreamPaddedWorkspace { Auto, Never };

StreamPaddedWorkspace set_stream_padded_workspace(StreamPaddedWorkspace mode);
StreamPaddedWorkspace stream_padded_workspace();

// The streaming kernel's staged store of 16-bit outputs (stream_epilogue.cuh): Auto hands each
// round of staged rows to TMA (store_staged_tma: the math threads go on while it writes D),
// Never has the math threads write them (store_staged), so that the benchmark compares them.
enum class StreamTmaStore { Auto, Never };

StreamTmaStore set_stream_tma_store(StreamTmaStore mode);
StreamTmaStore stream_tma_store();

// The 256-row tiles' promotion of their sum into global memory after each chain of
// unpromoted_chain_k (stream_schedule.hpp): Auto (the CTAs' first promotions staggered,
// first_promotion_sub_stage), Unstaggered (every CTA after whole chains, as before session 58),
// or Never (for timing only: BF16 and FP32 outputs of K past the chain then miss the accuracy
// bars the promotion holds), so that the benchmark measures what the promotion costs.
enum class StreamPromote { Auto, Unstaggered, Never };

StreamPromote set_stream_promote(StreamPromote mode);
StreamPromote stream_promote();

// Sets a choice for one scope and restores the previous one after.
template <typename T, T (*kSet)(T)>
class ScopedChoice {
 public:
  explicit ScopedChoice(T choice) : previous_(kSet(choice)) {}
  ~ScopedChoice() { kSet(previous_); }
  ScopedChoice(const ScopedChoice&) = delete;
  ScopedChoice& operator=(const ScopedChoice&) = delete;

 private:
  T previous_;
};
using ScopedSm90Kernel = ScopedChoice<Sm90Kernel, set_sm90_kernel>;
using ScopedStreamEarlyFixup = ScopedChoice<StreamEarlyFixup, set_stream_early_fixup>;
using ScopedStreamSplitK = ScopedChoice<StreamSplitK, set_stream_split_k>;
using ScopedStreamMxValues = ScopedChoice<StreamMxValues, set_stream_mx_values>;
using ScopedStreamWidth192 = ScopedChoice<StreamWidth192, set_stream_width_192>;
using ScopedStreamPaddedWorkspace = ScopedChoice<StreamPaddedWorkspace, set_stream_padded_workspace>;
using ScopedStreamTmaStore = ScopedChoice<StreamTmaStore, set_stream_tma_store>;
using ScopedStreamPromote = ScopedChoice<StreamPromote, set_stream_promote>;

}  // namespace mxgemm::detail
