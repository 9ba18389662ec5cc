// Element types, where memory lives, non-owning matrix views and MX operands.
#pragma once

#include <cstdint>

namespace mxgemm {

// Element types. Sizes are one byte for the fp8 and scale types.
enum class DType : std::uint8_t {
  E4M3,  // fp8 s.eeee.mmm, bias 7, max 448, no inf, NaN = s.1111.111 (torch.float8_e4m3fn)
  E5M2,  // fp8 s.eeeee.mm, bias 15, max 57344, IEEE-style inf and NaN (torch.float8_e5m2)
  E8M0,  // unsigned power-of-two scale: byte e means 2^(e-127); 0xFF is NaN (torch.float8_e8m0fnu)
  BF16,  // bfloat16
  FP16,  // IEEE binary16
  FP32,  // IEEE binary32
};

// Size of one element in bytes.
constexpr int dtype_size(DType t) {
  return (t == DType::BF16 || t == DType::FP16) ? 2 : (t == DType::FP32 ? 4 : 1);
}

// Name as printed in error messages ("e4m3", "bf16", ...).
const char* dtype_name(DType t);

// Where a view's memory lives. The caller declares it; validation checks it against
// the entry point (GPU entry points take Device, the CPU reference takes Host) and,
// where a CUDA driver is present, against what the driver says about the pointer.
enum class Memory : std::uint8_t { Host, Device };

const char* memory_name(Memory m);

// A non-owning, row-major matrix: element (r, c) is at
// data + (r * row_stride + c) * dtype_size(dtype). Columns are contiguous; row_stride is
// counted in elements and must be >= cols. Ptr is void (writable) or const void.
template <typename Ptr>
struct BasicMatrixView {
  Ptr* data = nullptr;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t row_stride = 0;
  DType dtype = DType::FP32;
  Memory memory = Memory::Host;

  constexpr BasicMatrixView() = default;
  constexpr BasicMatrixView(Ptr* data_, std::int64_t rows_, std::int64_t cols_,
                            std::int64_t row_stride_, DType dtype_, Memory memory_)
      : data(data_), rows(rows_), cols(cols_), row_stride(row_stride_), dtype(dtype_),
        memory(memory_) {}
  // A writable view converts to a read-only one.
  template <typename Other>
  constexpr BasicMatrixView(const BasicMatrixView<Other>& o)  // NOLINT(google-explicit-constructor)
      : BasicMatrixView(o.data, o.rows, o.cols, o.row_stride, o.dtype, o.memory) {}

  constexpr std::int64_t size_bytes_spanned() const {
    return rows == 0 ? 0 : ((rows - 1) * row_stride + cols) * dtype_size(dtype);
  }
};

using MatrixView = BasicMatrixView<void>;
using ConstMatrixView = BasicMatrixView<const void>;

// A contiguous (row_stride == cols) view.
template <typename Ptr>
constexpr BasicMatrixView<Ptr> contiguous(Ptr* data, std::int64_t rows, std::int64_t cols,
                                          DType dtype, Memory memory) {
  return BasicMatrixView<Ptr>(data, rows, cols, cols, dtype, memory);
}

// How E8M0 scales are stored; see layout.hpp for the exact byte offsets.
enum class ScaleLayout : std::uint8_t {
  // cuBLAS "32_4_4" / CUTLASS sm100 SfKMajorAtom / torchao to_blocked: padded to
  // (round_up(rows, 128), round_up(ceil(K/32), 4)), 512-byte tiles of 128 rows x 4
  // scale columns. The scale view must be contiguous with exactly that shape.
  Swizzled128x4,
  // A (rows, ceil(K/32)) row-major byte matrix; row_stride >= ceil(K/32).
  Linear,
};

const char* layout_name(ScaleLayout l);

// The order of an MXFP8 operand's elements inside each 32-element block (the scales do not
// move).
enum class KOrder : std::uint8_t {
  // Element k at column k.
  Natural,
  // A weight prepacked for the sm_90 weight-only kernels (mxgemm/prepack.hpp): byte
  // 8q + 4h + 2i + j of each block (q < 4; h, i, j < 2) holds its element 16h + 8i + 2q + j,
  // which puts the 8 elements a thread multiplies in 8 consecutive bytes. Whole blocks only
  // (K % 32 == 0); read by mxfp8_weight_only_mm and its reference only.
  Prepacked,
};

const char* k_order_name(KOrder o);

// One MXFP8 operand: R x K fp8 data (K contiguous) and its E8M0 scales, one per 32
// consecutive elements along K (the last block is short when K % 32 != 0).
template <typename Ptr>
struct BasicMxOperand {
  BasicMatrixView<Ptr> data;    // R x K, dtype E4M3 or E5M2
  BasicMatrixView<Ptr> scales;  // dtype E8M0, shape given by `layout`
  ScaleLayout layout = ScaleLayout::Swizzled128x4;
  KOrder order = KOrder::Natural;  // of the data's elements inside each block

  constexpr BasicMxOperand() = default;
  constexpr BasicMxOperand(BasicMatrixView<Ptr> data_, BasicMatrixView<Ptr> scales_,
                           ScaleLayout layout_, KOrder order_ = KOrder::Natural)
      : data(data_), scales(scales_), layout(layout_), order(order_) {}
  template <typename Other>
  constexpr BasicMxOperand(const BasicMxOperand<Other>& o)  // NOLINT(google-explicit-constructor)
      : data(o.data), scales(o.scales), layout(o.layout), order(o.order) {}
};

using MxOperand = BasicMxOperand<void>;
using ConstMxOperand = BasicMxOperand<const void>;

// How the shared exponent of a 32-element block is chosen (MX_FORMAT.md, "Quantization").
enum class ScaleRounding : std::uint8_t {
  // OCP MX v1.0: shared_exp = floor(log2(amax)) - emax_elem; elements saturate to +-max.
  Floor,
  // cuBLAS / Transformer Engine: shared_exp = ceil(log2(amax / max_finite)); nothing saturates.
  RCeil,
};

const char* rounding_name(ScaleRounding r);

}  // namespace mxgemm
