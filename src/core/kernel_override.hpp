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

// Sets a choice for one scope and restores the previous one after.
class ScopedSm90Kernel {
 public:
  explicit ScopedSm90Kernel(Sm90Kernel kernel) : previous_(set_sm90_kernel(kernel)) {}
  ~ScopedSm90Kernel() { set_sm90_kernel(previous_); }
  ScopedSm90Kernel(const ScopedSm90Kernel&) = delete;
  ScopedSm90Kernel& operator=(const ScopedSm90Kernel&) = delete;

 private:
  Sm90Kernel previous_;
};

}  // namespace mxgemm::detail
