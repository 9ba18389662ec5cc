// The one validation of every entry point's arguments. Messages follow
// "<fn>: <argument>: expected <what>, got <what>".
#include "core/validate.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

#include "core/check.hpp"
#include "mxgemm/layout.hpp"

namespace mxgemm::detail {
namespace {

// Dimensions are kept below 2^31 so that kernels may index rows and columns in 32 bits,
// and every byte offset below 2^62 so that 64-bit offset math cannot overflow.
constexpr std::int64_t kMaxDim = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 62;

std::string shape_str(std::int64_t r, std::int64_t c) { return concat(r, "x", c); }

std::string dtype_list(std::initializer_list<DType> ok) {
  std::string s;
  for (DType t : ok) s += (s.empty() ? "" : " or ") + std::string(dtype_name(t));
  return s;
}

void check_dtype(const char* fn, const std::string& arg, DType actual,
                 std::initializer_list<DType> ok) {
  for (DType t : ok)
    if (t == actual) return;
  fail<DtypeError>(fn, arg + ".dtype", dtype_list(ok), dtype_name(actual));
}

// Where the driver says `ptr` lives, checked against the declared placement.
void check_pointer_placement(const char* fn, const std::string& arg, const void* ptr,
                             Memory memory) {
  cudaPointerAttributes attr{};
  const cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
  if (err != cudaSuccess) {
    cudaGetLastError();  // not a pointer the driver can classify: nothing to learn
    return;
  }
  const bool on_device = attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
  const bool host_visible = attr.type != cudaMemoryTypeDevice;
  if (memory == Memory::Device) {
    if (!on_device) fail(fn, arg, "device memory", "host memory");
    int current = -1;
    if (attr.type == cudaMemoryTypeDevice && cudaGetDevice(&current) == cudaSuccess &&
        attr.device != current)
      fail(fn, arg, concat("memory on the current device ", current),
           concat("memory on device ", attr.device));
  } else if (!host_visible) {
    fail(fn, arg, "host memory", concat("device memory (device ", attr.device, ")"));
  }
}

// Shape, stride, pointer, placement and size checks common to every matrix argument.
void check_matrix(const char* fn, const std::string& arg, const ConstMatrixView& m,
                  Placement placement) {
  if (m.data == nullptr) fail(fn, arg + ".data", "a non-null pointer", "null");
  if (m.rows < 1 || m.rows > kMaxDim)
    fail(fn, arg + ".rows", concat("1 .. ", kMaxDim), m.rows);
  if (m.cols < 1 || m.cols > kMaxDim)
    fail(fn, arg + ".cols", concat("1 .. ", kMaxDim), m.cols);
  if (m.row_stride < m.cols)
    fail(fn, arg + ".row_stride", concat(">= cols (", m.cols, ")"), m.row_stride);
  if (m.row_stride > kMaxBytes / m.rows / dtype_size(m.dtype))
    fail(fn, arg, concat("rows * row_stride * ", dtype_size(m.dtype), " bytes < 2^62"),
         concat(m.rows, " * ", m.row_stride, " * ", dtype_size(m.dtype)));
  const auto addr = reinterpret_cast<std::uintptr_t>(m.data);
  if (addr % dtype_size(m.dtype) != 0)
    fail(fn, arg + ".data", concat("aligned to ", dtype_size(m.dtype), " bytes (", dtype_name(m.dtype), ")"),
         concat("address ", hex_address(addr)));
  if (m.memory != placement.memory)
    fail(fn, arg + ".memory", memory_name(placement.memory), memory_name(m.memory));
  if (placement.query_driver) check_pointer_placement(fn, arg + ".data", m.data, placement.memory);
}

void check_scales(const char* fn, const std::string& name, const ConstMxOperand& op,
                  Placement placement) {
  const std::string arg = name + ".scales";
  const ConstMatrixView& s = op.scales;
  check_dtype(fn, arg, s.dtype, {DType::E8M0});
  check_matrix(fn, arg, s, placement);
  const ScaleShape want = scale_shape(op.data.rows, op.data.cols, op.layout);
  const std::string why = concat(" for ", layout_name(op.layout), " scales of a ",
                                 shape_str(op.data.rows, op.data.cols), " operand");
  if (s.rows != want.rows || s.cols != want.cols)
    fail(fn, arg + " shape", shape_str(want.rows, want.cols) + why, shape_str(s.rows, s.cols));
  if (op.layout == ScaleLayout::Swizzled128x4 && s.row_stride != s.cols)
    fail(fn, arg + ".row_stride", concat(s.cols, " (swizzled scales are contiguous)"),
         s.row_stride);
}

// Do the byte ranges [p, p+n) and [q, q+m) intersect?
bool overlaps(const void* p, std::int64_t n, const void* q, std::int64_t m) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const auto b = reinterpret_cast<std::uintptr_t>(q);
  return a < b + static_cast<std::uintptr_t>(m) && b < a + static_cast<std::uintptr_t>(n);
}

// An output must not share memory with an input: the kernels read inputs while writing.
void check_no_overlap(const char* fn, const std::string& out_name, const ConstMatrixView& out,
                      const std::string& in_name, const ConstMatrixView& in) {
  if (overlaps(out.data, out.size_bytes_spanned(), in.data, in.size_bytes_spanned()))
    fail(fn, out_name, concat("memory disjoint from ", in_name), "overlapping memory");
}

}  // namespace

void validate_mx_operand(const char* fn, const char* name, const ConstMxOperand& op,
                         Placement placement, bool prepacked_taken) {
  const std::string data = std::string(name) + ".data";
  check_dtype(fn, data, op.data.dtype, {DType::E4M3, DType::E5M2});
  check_matrix(fn, data, op.data, placement);
  check_scales(fn, name, op, placement);
  const std::string order = std::string(name) + ".order";
  if (op.order != KOrder::Natural && op.order != KOrder::Prepacked)
    fail(fn, order, "natural or prepacked", concat("value ", static_cast<int>(op.order)));
  if (op.order == KOrder::Prepacked) {
    if (!prepacked_taken)
      fail<UnsupportedError>(fn, order, "natural (only mxfp8_weight_only_mm and its reference read a prepacked weight)",
                             k_order_name(op.order));
    if (op.data.cols % 32 != 0)
      fail(fn, concat(name, ".data.cols (K)"), "a multiple of 32 for a prepacked weight (whole 32-element blocks)",
           op.data.cols);
  }
}

namespace {

// TMA loads the rows of a GPU operand: 16-byte aligned base and row pitch.
void check_tma_rows(const char* fn, const char* name, const ConstMatrixView& m) {
  const auto addr = reinterpret_cast<std::uintptr_t>(m.data);
  if (addr % 16 != 0) fail(fn, name, "a 16-byte aligned address", concat("address ", hex_address(addr)));
  if (m.row_stride % 16 != 0)
    fail(fn, concat(name, ".row_stride"), "a multiple of 16 elements (16 bytes)", m.row_stride);
}

// K of the second operand (`b_name`: "b" or "w") against a's.
void check_k(const char* fn, const char* b_name, std::int64_t m, std::int64_t k, std::int64_t n,
             std::int64_t b_cols) {
  if (b_cols != k)
    fail(fn, concat(b_name, ".data.cols (K)"),
         concat(k, " to match a (a is ", shape_str(m, k), ", ", b_name, " is N x K)"),
         concat(b_cols, " (", b_name, " is ", shape_str(n, b_cols), ")"));
  if (k % 16 != 0) fail(fn, "K (a.data.cols)", "a multiple of 16", k);
}

void check_output(const char* fn, const MatrixView& d, std::int64_t m, std::int64_t n,
                  const char* from, Placement placement) {
  check_dtype(fn, "d", d.dtype, {DType::BF16, DType::FP16, DType::FP32});
  check_matrix(fn, "d", d, placement);
  if (d.rows != m || d.cols != n)
    fail(fn, "d shape", concat(shape_str(m, n), " (M x N from ", from, ")"), shape_str(d.rows, d.cols));
}

void check_alpha(const char* fn, const float* alpha, bool alpha_is_value, Placement placement) {
  if (alpha_is_value) return;
  if (alpha == nullptr) fail(fn, "alpha", "a non-null pointer to one fp32", "null");
  if (reinterpret_cast<std::uintptr_t>(alpha) % alignof(float) != 0)
    fail(fn, "alpha", "a 4-byte aligned address", "a misaligned address");
  if (placement.query_driver) check_pointer_placement(fn, "alpha", alpha, placement.memory);
}

}  // namespace

void validate_gemm(const char* fn, const ConstMxOperand& a, const ConstMxOperand& b,
                   const float* alpha, bool alpha_is_value, const MatrixView& d,
                   Placement placement) {
  validate_mx_operand(fn, "a", a, placement);
  validate_mx_operand(fn, "b", b, placement);
  const std::int64_t m = a.data.rows, n = b.data.rows, k = a.data.cols;
  check_k(fn, "b", m, k, n, b.data.cols);
  if (placement.memory == Memory::Device) {
    check_tma_rows(fn, "a.data", a.data);
    check_tma_rows(fn, "b.data", b.data);
  }
  check_output(fn, d, m, n, "a and b", placement);
  check_alpha(fn, alpha, alpha_is_value, placement);
  for (const auto& [nm, in] : {std::pair<const char*, ConstMatrixView>{"a.data", a.data},
                               {"a.scales", a.scales},
                               {"b.data", b.data},
                               {"b.scales", b.scales}})
    check_no_overlap(fn, "d", d, nm, in);
}

void validate_weight_only(const char* fn, const ConstMatrixView& a, const ConstMxOperand& w,
                          const float* alpha, bool alpha_is_value, const ConstMatrixView* bias,
                          const MatrixView& d, Placement placement) {
  check_dtype(fn, "a", a.dtype, {DType::BF16, DType::FP16});
  check_matrix(fn, "a", a, placement);
  validate_mx_operand(fn, "w", w, placement, /*prepacked_taken=*/true);
  const std::int64_t m = a.rows, n = w.data.rows, k = a.cols;
  check_k(fn, "w", m, k, n, w.data.cols);
  if (placement.memory == Memory::Device) check_tma_rows(fn, "w.data", w.data);
  check_output(fn, d, m, n, "a and w", placement);
  check_alpha(fn, alpha, alpha_is_value, placement);
  if (bias != nullptr) {
    check_dtype(fn, "bias", bias->dtype, {DType::FP32, DType::BF16, DType::FP16});
    check_matrix(fn, "bias", *bias, placement);
    if (bias->rows != 1 || bias->cols != n)
      fail(fn, "bias shape", concat(shape_str(1, n), " (one row of N from w)"),
           shape_str(bias->rows, bias->cols));
  }
  for (const auto& [nm, in] : {std::pair<const char*, ConstMatrixView>{"a", a},
                               {"w.data", w.data},
                               {"w.scales", w.scales}})
    check_no_overlap(fn, "d", d, nm, in);
  if (bias != nullptr) check_no_overlap(fn, "d", d, "bias", *bias);
}

void validate_gemm_sm100_support(const char* fn, const ConstMxOperand& a, const ConstMxOperand& b,
                                 const MatrixView& d) {
  const std::string why = " on the sm_100 path";
  for (const auto& [nm, op] : {std::pair<const char*, const ConstMxOperand*>{"a", &a}, {"b", &b}}) {
    if (op->data.dtype != DType::E4M3)
      fail<UnsupportedError>(fn, concat(nm, ".data.dtype"), "e4m3" + why, dtype_name(op->data.dtype));
    if (op->layout != ScaleLayout::Swizzled128x4)
      fail<UnsupportedError>(fn, concat(nm, ".layout"),
                             "swizzled128x4 scales" + why + " (convert with scales_to_swizzled)",
                             layout_name(op->layout));
    const auto addr = reinterpret_cast<std::uintptr_t>(op->scales.data);
    if (addr % 16 != 0)
      fail<UnsupportedError>(fn, concat(nm, ".scales.data"), "a 16-byte aligned address" + why,
                             concat("address ", hex_address(addr)));
  }
  if (d.dtype != DType::BF16 && d.dtype != DType::FP16)
    fail<UnsupportedError>(fn, "d.dtype", "bf16 or fp16" + why, dtype_name(d.dtype));
  // The epilogue stores 16-byte vectors of 8 outputs.
  if (d.cols % 8 != 0) fail<UnsupportedError>(fn, "N (d.cols)", "a multiple of 8" + why, d.cols);
  if (d.row_stride % 8 != 0)
    fail<UnsupportedError>(fn, "d.row_stride", "a multiple of 8 elements" + why, d.row_stride);
  const auto daddr = reinterpret_cast<std::uintptr_t>(d.data);
  if (daddr % 16 != 0)
    fail<UnsupportedError>(fn, "d.data", "a 16-byte aligned address" + why,
                           concat("address ", hex_address(daddr)));
}

namespace {

// Quantize, rowwise or columnwise: `out` is x's MXFP8 form (`name` "q"), or that of x's
// transpose ("qt").
void validate_quantize_into(const char* fn, const ConstMatrixView& x, const ConstMxOperand& out,
                            const char* name, bool transposed, Placement placement) {
  check_dtype(fn, "x", x.dtype, {DType::FP32, DType::BF16, DType::FP16});
  check_matrix(fn, "x", x, placement);
  validate_mx_operand(fn, name, out, placement);
  const std::int64_t rows = transposed ? x.cols : x.rows, cols = transposed ? x.rows : x.cols;
  const std::string data = concat(name, ".data"), scales = concat(name, ".scales");
  if (out.data.rows != rows || out.data.cols != cols)
    fail(fn, data + " shape",
         concat(shape_str(rows, cols), transposed ? " (the shape of x transposed)" : " (the shape of x)"),
         shape_str(out.data.rows, out.data.cols));
  check_no_overlap(fn, data, out.data, "x", x);
  check_no_overlap(fn, scales, out.scales, "x", x);
  check_no_overlap(fn, scales, out.scales, data, out.data);
}

}  // namespace

void validate_quantize(const char* fn, const ConstMatrixView& x, const ConstMxOperand& q,
                       Placement placement) {
  validate_quantize_into(fn, x, q, "q", /*transposed=*/false, placement);
}

void validate_quantize_columnwise(const char* fn, const ConstMatrixView& x,
                                  const ConstMxOperand& qt, Placement placement) {
  validate_quantize_into(fn, x, qt, "qt", /*transposed=*/true, placement);
}

void validate_dequantize(const char* fn, const ConstMxOperand& q, const ConstMatrixView& out,
                         Placement placement) {
  validate_mx_operand(fn, "q", q, placement);
  check_dtype(fn, "out", out.dtype, {DType::FP32, DType::BF16, DType::FP16});
  check_matrix(fn, "out", out, placement);
  if (out.rows != q.data.rows || out.cols != q.data.cols)
    fail(fn, "out shape", concat(shape_str(q.data.rows, q.data.cols), " (the shape of q)"),
         shape_str(out.rows, out.cols));
  check_no_overlap(fn, "out", out, "q.data", q.data);
  check_no_overlap(fn, "out", out, "q.scales", q.scales);
}

void validate_prepack(const char* fn, const ConstMatrixView& w, const MatrixView& out, Placement placement) {
  check_dtype(fn, "w", w.dtype, {DType::E4M3, DType::E5M2});
  check_matrix(fn, "w", w, placement);
  check_matrix(fn, "out", out, placement);
  if (out.dtype != w.dtype) fail<DtypeError>(fn, "out.dtype", concat(dtype_name(w.dtype), " (w's)"), dtype_name(out.dtype));
  if (out.rows != w.rows || out.cols != w.cols)
    fail(fn, "out shape", concat(shape_str(w.rows, w.cols), " (the shape of w)"), shape_str(out.rows, out.cols));
  if (w.cols % 32 != 0) fail(fn, "K (w.cols)", "a multiple of 32 (whole 32-element blocks)", w.cols);
  if (placement.memory == Memory::Device) {
    check_tma_rows(fn, "w", w);
    check_tma_rows(fn, "out", out);
  }
  const bool in_place = out.data == w.data && out.row_stride == w.row_stride;
  if (!in_place) check_no_overlap(fn, "out", out, "w", w);
}

void validate_scale_conversion(const char* fn, const ConstMatrixView& linear,
                               const ConstMatrixView& swizzled, std::int64_t rows,
                               std::int64_t k) {
  if (rows < 1 || rows > kMaxDim) fail(fn, "rows", concat("1 .. ", kMaxDim), rows);
  if (k < 1 || k > kMaxDim) fail(fn, "k", concat("1 .. ", kMaxDim), k);
  const Placement host{Memory::Host, false};
  for (const auto& [nm, view, layout] :
       {std::tuple<const char*, ConstMatrixView, ScaleLayout>{"linear", linear, ScaleLayout::Linear},
        {"swizzled", swizzled, ScaleLayout::Swizzled128x4}}) {
    check_dtype(fn, nm, view.dtype, {DType::E8M0});
    check_matrix(fn, nm, view, host);
    const ScaleShape want = scale_shape(rows, k, layout);
    if (view.rows != want.rows || view.cols != want.cols)
      fail(fn, concat(nm, " shape"),
           concat(shape_str(want.rows, want.cols), " for ", layout_name(layout), " scales of a ",
                  shape_str(rows, k), " operand"),
           shape_str(view.rows, view.cols));
  }
  if (swizzled.row_stride != swizzled.cols)
    fail(fn, "swizzled.row_stride", concat(swizzled.cols, " (swizzled scales are contiguous)"),
         swizzled.row_stride);
  check_no_overlap(fn, "swizzled", swizzled, "linear", linear);
}

}  // namespace mxgemm::detail
