// mxgemm._core: the Python binding of the public C++ API, and the only binding file. It
// knows nothing of PyTorch: host functions take and return numpy arrays, GPU functions
// take raw device pointers and a stream handle (the torch layer, python/mxgemm/ops.py,
// passes tensor.data_ptr() and the current stream). Every call goes through the public
// entry points, so the C++ validation is the validation; C++ exceptions become Python
// ones carrying the C++ message:
//   mxgemm::DtypeError -> mxgemm.DtypeError (a TypeError)
//   mxgemm::ArgumentError -> mxgemm.ArgumentError (a ValueError)
//   mxgemm::UnsupportedError, mxgemm::CudaError -> mxgemm.UnsupportedError, mxgemm.CudaError
//   (RuntimeErrors)
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "core/check.hpp"  // concat, fail: the library's message format
#include "mxgemm/mxgemm.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using mxgemm::ConstMatrixView;
using mxgemm::ConstMxOperand;
using mxgemm::DType;
using mxgemm::DtypeError;
using mxgemm::MatrixView;
using mxgemm::Memory;
using mxgemm::MxOperand;
using mxgemm::ScaleLayout;
using mxgemm::ScaleRounding;
using mxgemm::detail::concat;
using mxgemm::detail::fail;

// ---- names -----------------------------------------------------------------------------

constexpr DType kAllDtypes[] = {DType::E4M3, DType::E5M2, DType::E8M0,
                                DType::BF16, DType::FP16, DType::FP32};

DType parse_dtype(const char* fn, const char* arg, const std::string& s) {
  for (DType t : kAllDtypes)
    if (s == mxgemm::dtype_name(t)) return t;
  fail<DtypeError>(fn, arg, "one of e4m3, e5m2, e8m0, bf16, fp16, fp32", "'" + s + "'");
}

ScaleLayout parse_layout(const char* fn, const std::string& s) {
  if (s == "swizzled" || s == "swizzled128x4") return ScaleLayout::Swizzled128x4;
  if (s == "linear") return ScaleLayout::Linear;
  fail(fn, "layout", "'swizzled' or 'linear'", "'" + s + "'");
}

mxgemm::KOrder parse_order(const char* fn, const std::string& s) {
  if (s == "natural") return mxgemm::KOrder::Natural;
  if (s == "prepacked") return mxgemm::KOrder::Prepacked;
  fail(fn, "weight_order", "'natural' or 'prepacked'", "'" + s + "'");
}

ScaleRounding parse_rounding(const char* fn, const std::string& s) {
  if (s == "floor") return ScaleRounding::Floor;
  if (s == "rceil") return ScaleRounding::RCeil;
  fail(fn, "rounding", "'floor' or 'rceil'", "'" + s + "'");
}

// ---- host arrays -----------------------------------------------------------------------
// Each mxgemm dtype travels in one numpy dtype: its codes as uint8 (fp8, E8M0), its bits as
// uint16 (bf16, which numpy lacks), or the numpy float of the same format (fp16, fp32).

using HostArray = nb::ndarray<nb::ro, nb::device::cpu>;
using NumpyArray = nb::ndarray<nb::numpy>;

nb::dlpack::dtype storage_dtype(DType t) {
  switch (t) {
    case DType::BF16: return nb::dtype<std::uint16_t>();
    case DType::FP16: return {static_cast<std::uint8_t>(nb::dlpack::dtype_code::Float), 16, 1};
    case DType::FP32: return nb::dtype<float>();
    default: return nb::dtype<std::uint8_t>();
  }
}

const char* storage_name(DType t) {
  switch (t) {
    case DType::BF16: return "uint16 (bf16 bits)";
    case DType::FP16: return "float16";
    case DType::FP32: return "float32";
    default: return "uint8";
  }
}

std::string numpy_name(nb::dlpack::dtype d) {
  using C = nb::dlpack::dtype_code;
  const char* kind = "";
  switch (static_cast<C>(d.code)) {
    case C::Int: kind = "int"; break;
    case C::UInt: kind = "uint"; break;
    case C::Float: kind = "float"; break;
    case C::Bfloat: kind = "bfloat"; break;
    case C::Complex: kind = "complex"; break;
    case C::Bool: return "bool";
    default: return concat("dtype code ", int(d.code), " with ", int(d.bits), " bits");
  }
  return concat(kind, int(d.bits));
}

// The high-precision type a numpy array holds: float32, float16, or uint16 as bf16 bits.
DType infer_float_dtype(const char* fn, const char* arg, const HostArray& x) {
  for (DType t : {DType::FP32, DType::FP16, DType::BF16})
    if (x.dtype() == storage_dtype(t)) return t;
  fail<DtypeError>(fn, arg, "a float32, float16 or uint16 (bf16 bits) array", numpy_name(x.dtype()));
}

// A read-only view of a 2-D host array whose elements are of type `t`. The view carries the
// array's true shape and row stride, so the C++ validation sees exactly what is there.
ConstMatrixView host_view(const char* fn, const char* arg, const HostArray& x, DType t) {
  if (x.ndim() != 2)
    fail(fn, arg, "a 2-D array", concat(x.ndim(), "-D"));
  if (x.dtype() != storage_dtype(t))
    fail<DtypeError>(fn, arg, concat("a ", storage_name(t), " array (", mxgemm::dtype_name(t), ")"),
                     numpy_name(x.dtype()));
  const auto rows = static_cast<std::int64_t>(x.shape(0));
  const auto cols = static_cast<std::int64_t>(x.shape(1));
  if (cols > 1 && x.stride(1) != 1)
    fail(fn, arg, "contiguous columns (element stride 1 along axis 1)", x.stride(1));
  // A single row's stride is meaningless (numpy may report 0 for a broadcast row).
  const std::int64_t row_stride = rows == 1 ? cols : x.stride(0);
  return ConstMatrixView(x.data(), rows, cols, row_stride, t, Memory::Host);
}

// A new zero-filled C-contiguous rows x cols array for elements of type `t`, and a
// writable view of it. The capsule owns the memory from the start, so it is freed if
// the C++ call throws before the array is returned.
struct NewArray {
  nb::capsule owner;
  MatrixView view;
  NumpyArray array() const {
    const size_t shape[2] = {static_cast<size_t>(view.rows), static_cast<size_t>(view.cols)};
    return NumpyArray(view.data, 2, shape, owner, nullptr, storage_dtype(view.dtype));
  }
};

NewArray new_host_array(std::int64_t rows, std::int64_t cols, DType t) {
  const auto bytes = static_cast<size_t>(rows) * static_cast<size_t>(cols) * mxgemm::dtype_size(t);
  auto* p = new std::uint8_t[bytes > 0 ? bytes : 1]();
  nb::capsule owner(p, [](void* q) noexcept { delete[] static_cast<std::uint8_t*>(q); });
  return {std::move(owner), mxgemm::contiguous<void>(p, rows, cols, t, Memory::Host)};
}

void check_dims(const char* fn, std::int64_t rows, std::int64_t k) {
  if (rows < 1) fail(fn, "rows", ">= 1", rows);
  if (k < 1) fail(fn, "k", ">= 1", k);
}

// ---- host entry points -----------------------------------------------------------------

NumpyArray mxfp8_scaled_mm_reference(const HostArray& a, const HostArray& b,
                                     const HostArray& scales_a, const HostArray& scales_b,
                                     float alpha, const std::string& out_dtype,
                                     const std::string& a_dtype, const std::string& b_dtype,
                                     const std::string& layout) {
  constexpr const char* fn = "mxfp8_scaled_mm_reference";
  const ScaleLayout l = parse_layout(fn, layout);
  const ConstMxOperand opa(host_view(fn, "a", a, parse_dtype(fn, "a_dtype", a_dtype)),
                           host_view(fn, "scales_a", scales_a, DType::E8M0), l);
  const ConstMxOperand opb(host_view(fn, "b", b, parse_dtype(fn, "b_dtype", b_dtype)),
                           host_view(fn, "scales_b", scales_b, DType::E8M0), l);
  const NewArray d = new_host_array(opa.data.rows, opb.data.rows,
                                    parse_dtype(fn, "out_dtype", out_dtype));
  {
    nb::gil_scoped_release release;
    mxgemm::mxfp8_scaled_mm_reference(opa, opb, alpha, d.view);
  }
  return d.array();
}

// a (M, K) float16 or uint16 (bf16 bits); w/scales_w the MXFP8 weight; bias None or an (N,)
// float32 / float16 / uint16 (bf16) array.
NumpyArray mxfp8_weight_only_mm_reference(const HostArray& a, const HostArray& w,
                                          const HostArray& scales_w, float alpha,
                                          const std::string& out_dtype, const std::string& w_dtype,
                                          const std::string& layout,
                                          const std::optional<HostArray>& bias,
                                          const std::string& weight_order) {
  constexpr const char* fn = "mxfp8_weight_only_mm_reference";
  DType a_type = DType::BF16;
  if (a.dtype() == storage_dtype(DType::FP16)) a_type = DType::FP16;
  else if (a.dtype() != storage_dtype(DType::BF16))
    fail<DtypeError>(fn, "a", "a float16 or uint16 (bf16 bits) array", numpy_name(a.dtype()));
  const ConstMatrixView av = host_view(fn, "a", a, a_type);
  const ConstMxOperand wop(host_view(fn, "w", w, parse_dtype(fn, "w_dtype", w_dtype)),
                           host_view(fn, "scales_w", scales_w, DType::E8M0), parse_layout(fn, layout),
                           parse_order(fn, weight_order));
  ConstMatrixView bv;
  if (bias) {
    if (bias->ndim() != 1) fail(fn, "bias", "a 1-D array of N values", concat(bias->ndim(), "-D"));
    const DType bt = infer_float_dtype(fn, "bias", *bias);
    if (bias->shape(0) > 1 && bias->stride(0) != 1)
      fail(fn, "bias", "a contiguous array (element stride 1)", bias->stride(0));
    const auto n = static_cast<std::int64_t>(bias->shape(0));
    bv = ConstMatrixView(bias->data(), 1, n, n, bt, Memory::Host);
  }
  const NewArray d = new_host_array(av.rows, wop.data.rows, parse_dtype(fn, "out_dtype", out_dtype));
  {
    nb::gil_scoped_release release;
    mxgemm::mxfp8_weight_only_mm_reference(av, wop, alpha, bias ? &bv : nullptr, d.view);
  }
  return d.array();
}

// x (R, K) -> (data, scales) of x (R x K), or with `columnwise` of its transpose (K x R).
std::tuple<NumpyArray, NumpyArray> quantize_reference(const char* fn, bool columnwise, const HostArray& x,
                                                      const std::string& elem, const std::string& rounding,
                                                      const std::string& layout) {
  const ConstMatrixView xv = host_view(fn, "x", x, infer_float_dtype(fn, "x", x));
  const ScaleLayout l = parse_layout(fn, layout);
  const ScaleRounding r = parse_rounding(fn, rounding);
  const DType e = parse_dtype(fn, "elem", elem);
  const std::int64_t rows = columnwise ? xv.cols : xv.rows, cols = columnwise ? xv.rows : xv.cols;
  const mxgemm::ScaleShape ss = mxgemm::scale_shape(rows, cols, l);
  const NewArray data = new_host_array(rows, cols, e);
  const NewArray scales = new_host_array(ss.rows, ss.cols, DType::E8M0);
  {
    nb::gil_scoped_release release;
    const MxOperand q(data.view, scales.view, l);
    if (columnwise)
      mxgemm::quantize_mxfp8_columnwise_reference(xv, q, r);
    else
      mxgemm::quantize_mxfp8_reference(xv, q, r);
  }
  return {data.array(), scales.array()};
}

std::tuple<NumpyArray, NumpyArray> quantize_mxfp8_reference(const HostArray& x, const std::string& elem,
                                                            const std::string& rounding,
                                                            const std::string& layout) {
  return quantize_reference("quantize_mxfp8_reference", false, x, elem, rounding, layout);
}

std::tuple<NumpyArray, NumpyArray> quantize_mxfp8_columnwise_reference(const HostArray& x,
                                                                       const std::string& elem,
                                                                       const std::string& rounding,
                                                                       const std::string& layout) {
  return quantize_reference("quantize_mxfp8_columnwise_reference", true, x, elem, rounding, layout);
}

NumpyArray dequantize_mxfp8_reference(const HostArray& data, const HostArray& scales,
                                      const std::string& out_dtype, const std::string& elem,
                                      const std::string& layout) {
  constexpr const char* fn = "dequantize_mxfp8_reference";
  const ConstMxOperand q(host_view(fn, "data", data, parse_dtype(fn, "elem", elem)),
                         host_view(fn, "scales", scales, DType::E8M0), parse_layout(fn, layout));
  const NewArray out = new_host_array(q.data.rows, q.data.cols,
                                      parse_dtype(fn, "out_dtype", out_dtype));
  {
    nb::gil_scoped_release release;
    mxgemm::dequantize_mxfp8_reference(q, out.view);
  }
  return out.array();
}

// w (N, K) uint8 codes -> a new (N, K) array of them in the prepacked order.
NumpyArray mxfp8_prepack_weight_reference(const HostArray& w, const std::string& elem) {
  constexpr const char* fn = "mxfp8_prepack_weight_reference";
  const ConstMatrixView wv = host_view(fn, "w", w, parse_dtype(fn, "elem", elem));
  const NewArray out = new_host_array(wv.rows, wv.cols, wv.dtype);
  {
    nb::gil_scoped_release release;
    mxgemm::mxfp8_prepack_weight_reference(wv, out.view);
  }
  return out.array();
}

NumpyArray to_swizzled(const HostArray& linear, std::int64_t rows, std::int64_t k) {
  constexpr const char* fn = "to_swizzled";
  check_dims(fn, rows, k);
  const ConstMatrixView lin = host_view(fn, "linear_scales", linear, DType::E8M0);
  const mxgemm::ScaleShape ss = mxgemm::scale_shape(rows, k, ScaleLayout::Swizzled128x4);
  const NewArray out = new_host_array(ss.rows, ss.cols, DType::E8M0);
  mxgemm::scales_to_swizzled(lin, out.view, rows, k);
  return out.array();
}

NumpyArray to_linear(const HostArray& swizzled, std::int64_t rows, std::int64_t k) {
  constexpr const char* fn = "to_linear";
  check_dims(fn, rows, k);
  const ConstMatrixView swz = host_view(fn, "swizzled_scales", swizzled, DType::E8M0);
  const NewArray out = new_host_array(rows, mxgemm::scale_cols(k), DType::E8M0);
  mxgemm::scales_to_linear(swz, out.view, rows, k);
  return out.array();
}

std::tuple<std::int64_t, std::int64_t> scale_shape(std::int64_t rows, std::int64_t k,
                                                   const std::string& layout) {
  constexpr const char* fn = "scale_shape";
  check_dims(fn, rows, k);
  const mxgemm::ScaleShape s = mxgemm::scale_shape(rows, k, parse_layout(fn, layout));
  return {s.rows, s.cols};
}

nb::dict gemm_backend() {
  const mxgemm::BackendInfo info = mxgemm::gemm_backend();
  nb::dict d;
  d["available"] = info.available;
  d["name"] = info.name;
  d["reason"] = info.reason;
  return d;
}

// ---- GPU entry points on raw device pointers ---------------------------------------------
// A device matrix travels as (pointer, rows, cols, row_stride in elements, dtype name).

using DeviceMatrix = std::tuple<std::uintptr_t, std::int64_t, std::int64_t, std::int64_t, std::string>;

MatrixView device_view(const char* fn, const char* arg, const DeviceMatrix& m) {
  const auto& [ptr, rows, cols, row_stride, dtype] = m;
  return MatrixView(reinterpret_cast<void*>(ptr), rows, cols, row_stride,
                    parse_dtype(fn, arg, dtype), Memory::Device);
}

cudaStream_t as_stream(std::uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

void mxfp8_scaled_mm_ptr(const DeviceMatrix& a, const DeviceMatrix& b, const DeviceMatrix& scales_a,
                         const DeviceMatrix& scales_b, std::uintptr_t alpha, const DeviceMatrix& d,
                         const std::string& layout, std::uintptr_t stream, bool skip_checks) {
  constexpr const char* fn = "mxfp8_scaled_mm";
  const ScaleLayout l = parse_layout(fn, layout);
  const ConstMxOperand opa(device_view(fn, "a", a), device_view(fn, "scales_a", scales_a), l);
  const ConstMxOperand opb(device_view(fn, "b", b), device_view(fn, "scales_b", scales_b), l);
  const MatrixView dv = device_view(fn, "d", d);
  nb::gil_scoped_release release;
  mxgemm::mxfp8_scaled_mm(opa, opb, reinterpret_cast<const float*>(alpha), dv, as_stream(stream),
                          skip_checks);
}

void mxfp8_weight_only_mm_ptr(const DeviceMatrix& a, const DeviceMatrix& w,
                              const DeviceMatrix& scales_w, std::uintptr_t alpha,
                              const std::optional<DeviceMatrix>& bias, const DeviceMatrix& d,
                              const std::string& layout, std::uintptr_t stream, bool skip_checks,
                              const std::string& weight_order) {
  constexpr const char* fn = "mxfp8_weight_only_mm";
  const ConstMatrixView av = device_view(fn, "a", a);
  const ConstMxOperand wop(device_view(fn, "w", w), device_view(fn, "scales_w", scales_w),
                           parse_layout(fn, layout), parse_order(fn, weight_order));
  ConstMatrixView bv;
  if (bias) bv = device_view(fn, "bias", *bias);
  const MatrixView dv = device_view(fn, "d", d);
  nb::gil_scoped_release release;
  mxgemm::mxfp8_weight_only_mm(av, wop, reinterpret_cast<const float*>(alpha), bias ? &bv : nullptr, dv,
                               as_stream(stream), skip_checks);
}

void mxfp8_prepack_weight_ptr(const DeviceMatrix& w, const DeviceMatrix& out, std::uintptr_t stream) {
  constexpr const char* fn = "mxfp8_prepack_weight";
  const ConstMatrixView wv = device_view(fn, "w", w);
  const MatrixView ov = device_view(fn, "out", out);
  nb::gil_scoped_release release;
  mxgemm::mxfp8_prepack_weight(wv, ov, as_stream(stream));
}

// `columnwise`: data and scales are the MXFP8 form of x's transpose.
void quantize_ptr(const char* fn, bool columnwise, const DeviceMatrix& x, const DeviceMatrix& data,
                  const DeviceMatrix& scales, const std::string& rounding, const std::string& layout,
                  std::uintptr_t stream) {
  const MxOperand q(device_view(fn, "data", data), device_view(fn, "scales", scales),
                    parse_layout(fn, layout));
  const ConstMatrixView xv = device_view(fn, "x", x);
  const ScaleRounding r = parse_rounding(fn, rounding);
  nb::gil_scoped_release release;
  if (columnwise)
    mxgemm::quantize_mxfp8_columnwise(xv, q, r, as_stream(stream));
  else
    mxgemm::quantize_mxfp8(xv, q, r, as_stream(stream));
}

void quantize_mxfp8_ptr(const DeviceMatrix& x, const DeviceMatrix& data, const DeviceMatrix& scales,
                        const std::string& rounding, const std::string& layout, std::uintptr_t stream) {
  quantize_ptr("quantize_mxfp8", false, x, data, scales, rounding, layout, stream);
}

void quantize_mxfp8_columnwise_ptr(const DeviceMatrix& x, const DeviceMatrix& data, const DeviceMatrix& scales,
                                   const std::string& rounding, const std::string& layout,
                                   std::uintptr_t stream) {
  quantize_ptr("quantize_mxfp8_columnwise", true, x, data, scales, rounding, layout, stream);
}

void dequantize_mxfp8_ptr(const DeviceMatrix& data, const DeviceMatrix& scales, const DeviceMatrix& out,
                          const std::string& layout, std::uintptr_t stream) {
  constexpr const char* fn = "dequantize_mxfp8";
  const ConstMxOperand q(device_view(fn, "data", data), device_view(fn, "scales", scales),
                         parse_layout(fn, layout));
  const MatrixView ov = device_view(fn, "out", out);
  nb::gil_scoped_release release;
  mxgemm::dequantize_mxfp8(q, ov, as_stream(stream));
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "mxgemm's C++ core: exact MXFP8 reference on numpy arrays, GPU entry points on "
            "device pointers. Use the mxgemm package, not this module.";
  m.attr("__version__") = MXGEMM_VERSION;
  m.attr("BLOCK_SIZE") = mxgemm::kBlockSize;

  nb::exception<mxgemm::DtypeError>(m, "DtypeError", PyExc_TypeError);
  nb::exception<mxgemm::ArgumentError>(m, "ArgumentError", PyExc_ValueError);
  nb::exception<mxgemm::UnsupportedError>(m, "UnsupportedError", PyExc_RuntimeError);
  nb::exception<mxgemm::CudaError>(m, "CudaError", PyExc_RuntimeError);

  m.def("mxfp8_scaled_mm_reference", &mxfp8_scaled_mm_reference, "a"_a, "b"_a, "scales_a"_a,
        "scales_b"_a, "alpha"_a, "out_dtype"_a, "a_dtype"_a = "e4m3", "b_dtype"_a = "e4m3",
        "layout"_a = "swizzled",
        "D = alpha * dequant(a) @ dequant(b).T, exact (fp64 sum, one rounding to out_dtype).\n"
        "a: (M, K) uint8 codes of a_dtype; b: (N, K) uint8 codes of b_dtype; scales_a/b: uint8\n"
        "E8M0 bytes in `layout` ('swizzled' or 'linear'); out_dtype 'bf16' (returned as uint16\n"
        "bits), 'fp16' (float16) or 'fp32' (float32). Returns a new (M, N) array.");
  m.def("mxfp8_weight_only_mm_reference", &mxfp8_weight_only_mm_reference, "a"_a, "w"_a,
        "scales_w"_a, "alpha"_a, "out_dtype"_a, "w_dtype"_a = "e4m3", "layout"_a = "swizzled",
        "bias"_a = nb::none(), "weight_order"_a = "natural",
        "D = alpha * a @ dequant(w).T (+ bias), exact (fp64 sum, one rounding to out_dtype).\n"
        "a: (M, K) uint16 (bf16 bits) or float16 activations; w: (N, K) uint8 codes of w_dtype;\n"
        "scales_w: uint8 E8M0 bytes in `layout`; bias: None or (N,) float32 / float16 / uint16\n"
        "(bf16). out_dtype 'bf16' (uint16 bits), 'fp16' or 'fp32'. weight_order 'natural' or\n"
        "'prepacked' (w as mxfp8_prepack_weight_reference returns it; K % 32 == 0).\n"
        "Returns a new (M, N) array.");
  m.def("mxfp8_prepack_weight_reference", &mxfp8_prepack_weight_reference, "w"_a, "elem"_a = "e4m3",
        "w (N, K) uint8 codes of elem ('e4m3' or 'e5m2'), K % 32 == 0 -> a new (N, K) array of the\n"
        "same codes in the prepacked order that mxfp8_weight_only_mm reads with\n"
        "weight_order='prepacked' (inside each 32-block, element 16h + 8i + 2q + j at byte\n"
        "8q + 4h + 2i + j).");
  m.def("quantize_mxfp8_reference", &quantize_mxfp8_reference, "x"_a, "elem"_a = "e4m3",
        "rounding"_a = "floor", "layout"_a = "swizzled",
        "x (R, K) float32, float16 or uint16 (bf16 bits) -> (data, scales): data (R, K) uint8\n"
        "codes of elem ('e4m3' or 'e5m2'), scales uint8 E8M0 bytes in `layout`, one per 32\n"
        "elements along K. rounding: 'floor' (OCP) or 'rceil' (cuBLAS / Transformer Engine).");
  m.def("quantize_mxfp8_columnwise_reference", &quantize_mxfp8_columnwise_reference, "x"_a,
        "elem"_a = "e4m3", "rounding"_a = "floor", "layout"_a = "swizzled",
        "x (R, K) as for quantize_mxfp8_reference -> the MXFP8 form of x's transpose: data (K, R)\n"
        "uint8 codes, scales uint8 E8M0 bytes in `layout` for a (K, R) operand, one per 32\n"
        "consecutive rows of a column of x. Equal to quantize_mxfp8_reference(x.T).");
  m.def("dequantize_mxfp8_reference", &dequantize_mxfp8_reference, "data"_a, "scales"_a,
        "out_dtype"_a = "fp32", "elem"_a = "e4m3", "layout"_a = "swizzled",
        "(data, scales) -> (R, K) array of out_dtype ('fp32', 'fp16', 'bf16' as uint16 bits).");
  m.def("to_swizzled", &to_swizzled, "linear_scales"_a, "rows"_a, "k"_a,
        "Linear (rows, ceil(k/32)) E8M0 scales -> the swizzled 128x4 layout, padded to\n"
        "(round_up(rows, 128), round_up(ceil(k/32), 4)) with zero bytes.");
  m.def("to_linear", &to_linear, "swizzled_scales"_a, "rows"_a, "k"_a,
        "Swizzled 128x4 E8M0 scales of a (rows, k) operand -> linear (rows, ceil(k/32)).");
  m.def("scale_shape", &scale_shape, "rows"_a, "k"_a, "layout"_a = "swizzled",
        "Shape (rows, cols) of the scale matrix of a (rows, k) operand in `layout`.");
  m.def("gemm_backend", &gemm_backend,
        "Which GPU kernel mxfp8_scaled_mm would use on the current device: a dict with\n"
        "'available' (bool), 'name' and 'reason' (why none can run). Never raises.");
  m.def("release_gpu_workspace", &mxgemm::release_gpu_workspace,
        nb::call_guard<nb::gil_scoped_release>(),
        "Frees the GPU GEMMs' scratch memory on every device where no CUDA graph capture used\n"
        "it, after waiting for that device; returns the bytes freed. The next call allocates\n"
        "again. Memory a capture used stays (its graphs may be replayed).");
  m.def("gpu_workspace_bytes", &mxgemm::gpu_workspace_bytes, "device"_a,
        "Bytes of scratch memory the GPU GEMMs hold on CUDA device `device`, what graph\n"
        "captures keep included.");

#define MXGEMM_DEVICE_MATRIX_DOC                                                              \
  "Device matrices are tuples (pointer, rows, cols, row_stride in elements, dtype name);\n"   \
  "stream is a cudaStream_t as an integer (0: the legacy default stream). The work runs on\n" \
  "the current CUDA device; every pointer must be memory of that device."
  m.def("mxfp8_scaled_mm_ptr", &mxfp8_scaled_mm_ptr, "a"_a, "b"_a, "scales_a"_a, "scales_b"_a,
        "alpha"_a, "d"_a, "layout"_a = "swizzled", "stream"_a = 0, "skip_checks"_a = false,
        "mxgemm::mxfp8_scaled_mm on device pointers; alpha points to one fp32 in device\n"
        "memory, read by the kernel. " MXGEMM_DEVICE_MATRIX_DOC);
  m.def("mxfp8_weight_only_mm_ptr", &mxfp8_weight_only_mm_ptr, "a"_a, "w"_a, "scales_w"_a,
        "alpha"_a, "bias"_a.none(), "d"_a, "layout"_a = "swizzled", "stream"_a = 0,
        "skip_checks"_a = false, "weight_order"_a = "natural",
        "mxgemm::mxfp8_weight_only_mm on device pointers; bias None or a (pointer, 1, N, N,\n"
        "dtype) tuple; weight_order 'natural' or 'prepacked'. " MXGEMM_DEVICE_MATRIX_DOC);
  m.def("mxfp8_prepack_weight_ptr", &mxfp8_prepack_weight_ptr, "w"_a, "out"_a, "stream"_a = 0,
        "mxgemm::mxfp8_prepack_weight on device pointers (out may be w). " MXGEMM_DEVICE_MATRIX_DOC);
  m.def("quantize_mxfp8_ptr", &quantize_mxfp8_ptr, "x"_a, "data"_a, "scales"_a,
        "rounding"_a = "floor", "layout"_a = "swizzled", "stream"_a = 0,
        "mxgemm::quantize_mxfp8 on device pointers. " MXGEMM_DEVICE_MATRIX_DOC);
  m.def("quantize_mxfp8_columnwise_ptr", &quantize_mxfp8_columnwise_ptr, "x"_a, "data"_a, "scales"_a,
        "rounding"_a = "floor", "layout"_a = "swizzled", "stream"_a = 0,
        "mxgemm::quantize_mxfp8_columnwise on device pointers (data and scales: x's transpose, K x R). "
        MXGEMM_DEVICE_MATRIX_DOC);
  m.def("dequantize_mxfp8_ptr", &dequantize_mxfp8_ptr, "data"_a, "scales"_a, "out"_a,
        "layout"_a = "swizzled", "stream"_a = 0,
        "mxgemm::dequantize_mxfp8 on device pointers. " MXGEMM_DEVICE_MATRIX_DOC);
}
