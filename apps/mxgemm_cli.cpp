// mxgemm_cli: the main job. Makes random fp32 matrices A (M x K) and B (N x K), quantizes
// them to MXFP8 with quantize_mxfp8_reference, multiplies D = alpha * A x B^T on the GPU
// backend (or, where none is available, with the exact CPU reference), times it and
// checks the result:
//   GPU backend: against mxfp8_scaled_mm_reference (the exact oracle), plus a bitwise
//                rerun check;
//   CPU backend: against an fp64 product of the *unquantized* fp32 inputs (that is the
//                quantization error of MXFP8 itself), plus a bitwise rerun check.
//
// Exit codes: 0 PASS, 1 FAIL (a check failed), 2 bad usage or nothing can run (e.g.
// --backend gpu where no GPU backend is available).
#include <cuda_runtime_api.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/check.hpp"  // MXGEMM_CUDA_CHECK
#include "mxgemm/mxgemm.hpp"

namespace {

using namespace mxgemm;

struct Options {
  std::int64_t m = 512, n = 512, k = 512;
  std::string dtype = "e4m3", rounding = "floor", layout = "swizzled", out = "bf16";
  std::string backend = "auto";
  float alpha = 1.0f;
  std::uint64_t seed = 1234;
  int iters = 0;  // 0: 20 on the GPU, 3 on the CPU reference
};

// ---------------------------------------------------------------------------------------
// Host operands

// An owning host MXFP8 operand: R x K fp8 data and its E8M0 scales.
struct HostMx {
  std::int64_t rows = 0, k = 0;
  DType dtype = DType::E4M3;
  ScaleLayout layout = ScaleLayout::Swizzled128x4;
  ScaleShape sshape{0, 0};
  std::vector<std::uint8_t> data, scales;

  HostMx(std::int64_t rows_, std::int64_t k_, DType dtype_, ScaleLayout layout_)
      : rows(rows_), k(k_), dtype(dtype_), layout(layout_), sshape(scale_shape(rows_, k_, layout_)),
        data(static_cast<std::size_t>(rows_ * k_)),
        scales(static_cast<std::size_t>(sshape.rows * sshape.cols)) {}

  MxOperand view() {
    return MxOperand(contiguous(static_cast<void*>(data.data()), rows, k, dtype, Memory::Host),
                     contiguous(static_cast<void*>(scales.data()), sshape.rows, sshape.cols,
                                DType::E8M0, Memory::Host),
                     layout);
  }
};

std::vector<float> random_matrix(std::mt19937_64& gen, std::int64_t rows, std::int64_t cols) {
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> x(static_cast<std::size_t>(rows * cols));
  for (float& v : x) v = dist(gen);
  return x;
}

HostMx quantize(const std::vector<float>& x, std::int64_t rows, std::int64_t k, DType dtype,
                ScaleLayout layout, ScaleRounding rounding) {
  HostMx q(rows, k, dtype, layout);
  quantize_mxfp8_reference(contiguous(static_cast<const void*>(x.data()), rows, k, DType::FP32,
                                      Memory::Host),
                           q.view(), rounding);
  return q;
}

// D's bytes as doubles (exact: every bf16/fp16/fp32 value is a double).
std::vector<double> decode_output(const std::vector<std::uint8_t>& bytes, DType dtype) {
  const std::size_t count = bytes.size() / static_cast<std::size_t>(dtype_size(dtype));
  std::vector<double> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (dtype == DType::FP32) {
      float f;
      std::memcpy(&f, &bytes[i * 4], 4);
      v[i] = f;
    } else {
      std::uint16_t h;
      std::memcpy(&h, &bytes[i * 2], 2);
      v[i] = dtype == DType::BF16 ? decode_bf16(h) : decode_fp16(h);
    }
  }
  return v;
}

// alpha * A x B^T of the unquantized fp32 inputs, in fp64, on all cores.
std::vector<double> fp64_product(const std::vector<float>& a, const std::vector<float>& b,
                                 std::int64_t m, std::int64_t n, std::int64_t k, double alpha) {
  std::vector<double> d(static_cast<std::size_t>(m * n));
  const int nthreads = static_cast<int>(
      std::max<std::int64_t>(1, std::min<std::int64_t>(m, std::thread::hardware_concurrency())));
  std::vector<std::thread> pool;
  for (int t = 0; t < nthreads; ++t) {
    pool.emplace_back([&, t] {
      std::vector<double> arow(static_cast<std::size_t>(k));
      for (std::int64_t i = t; i < m; i += nthreads) {
        for (std::int64_t kk = 0; kk < k; ++kk) arow[kk] = a[i * k + kk];
        for (std::int64_t j = 0; j < n; ++j) {
          const float* brow = &b[j * k];
          double acc = 0.0;
          for (std::int64_t kk = 0; kk < k; ++kk) acc += arow[kk] * brow[kk];
          d[i * n + j] = alpha * acc;
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  return d;
}

struct Comparison {
  double rel_fro = 0.0;          // ||got - ref||_F / ||ref||_F over entries finite in both
  double max_abs = 0.0;          // max |got - ref| over the same entries
  std::int64_t nan_got = 0;      // NaN outputs
  std::int64_t nan_ref = 0;      // NaN entries of the reference
  std::int64_t nonfinite_mismatch = 0;  // entries where exactly one side is finite, or infs differ
};

Comparison compare(const std::vector<double>& got, const std::vector<double>& ref) {
  Comparison c;
  double err2 = 0.0, ref2 = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], r = ref[i];
    c.nan_got += std::isnan(g);
    c.nan_ref += std::isnan(r);
    if (std::isfinite(g) && std::isfinite(r)) {
      const double e = std::fabs(g - r);
      err2 += e * e;
      ref2 += r * r;
      c.max_abs = std::max(c.max_abs, e);
    } else if (!(std::isnan(g) && std::isnan(r)) && g != r) {
      ++c.nonfinite_mismatch;
    }
  }
  c.rel_fro = ref2 > 0.0 ? std::sqrt(err2 / ref2)
                         : (err2 == 0.0 ? 0.0 : std::numeric_limits<double>::infinity());
  return c;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

struct RunResult {
  std::vector<std::uint8_t> d;  // the checked output (the first run, into a poisoned D)
  std::vector<double> times_ms;
  bool deterministic = false;   // a later run wrote the same bytes
};

// ---------------------------------------------------------------------------------------
// CPU backend: the exact reference, timed with std::chrono.

RunResult run_cpu(HostMx& a, HostMx& b, float alpha, DType out, int iters) {
  const std::int64_t m = a.rows, n = b.rows;
  const std::size_t bytes = static_cast<std::size_t>(m * n * dtype_size(out));
  RunResult r;
  r.d.assign(bytes, 0xFF);  // poison: 0xFF.. is NaN in bf16/fp16/fp32
  std::vector<std::uint8_t> scratch(bytes, 0xFF);
  for (int i = 0; i < iters; ++i) {
    std::vector<std::uint8_t>& dst = i == 0 ? r.d : scratch;
    const auto t0 = std::chrono::steady_clock::now();
    mxfp8_scaled_mm_reference(a.view(), b.view(), alpha,
                              contiguous(static_cast<void*>(dst.data()), m, n, out, Memory::Host));
    const auto t1 = std::chrono::steady_clock::now();
    r.times_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  // Determinism: one more run into a freshly poisoned buffer must give the same bytes.
  std::fill(scratch.begin(), scratch.end(), 0xFF);
  mxfp8_scaled_mm_reference(a.view(), b.view(), alpha,
                            contiguous(static_cast<void*>(scratch.data()), m, n, out, Memory::Host));
  r.deterministic = scratch == r.d;
  return r;
}

// ---------------------------------------------------------------------------------------
// GPU backend: device buffers, alpha on the device, cudaEvent timing.

// RAII owners. Destructors cannot throw: a failed release is reported on stderr.
void warn_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "warning: %s: %s\n", what, cudaGetErrorString(e));
}
struct DeviceBuffer {
  void* ptr = nullptr;
  explicit DeviceBuffer(std::size_t bytes) { MXGEMM_CUDA_CHECK(cudaMalloc(&ptr, bytes)); }
  ~DeviceBuffer() { warn_cuda(cudaFree(ptr), "cudaFree"); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};
struct Stream {
  cudaStream_t s = nullptr;
  Stream() { MXGEMM_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~Stream() { warn_cuda(cudaStreamDestroy(s), "cudaStreamDestroy"); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};
struct Event {
  cudaEvent_t e = nullptr;
  Event() { MXGEMM_CUDA_CHECK(cudaEventCreate(&e)); }
  ~Event() { if (e) warn_cuda(cudaEventDestroy(e), "cudaEventDestroy"); }
  Event(Event&& o) noexcept : e(o.e) { o.e = nullptr; }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

// A host operand copied to the device; the returned view points at `data` and `scales`.
struct DeviceMx {
  DeviceBuffer data, scales;
  ConstMxOperand op;
  explicit DeviceMx(const HostMx& h) : data(h.data.size()), scales(h.scales.size()) {
    MXGEMM_CUDA_CHECK(cudaMemcpy(data.ptr, h.data.data(), h.data.size(), cudaMemcpyHostToDevice));
    MXGEMM_CUDA_CHECK(
        cudaMemcpy(scales.ptr, h.scales.data(), h.scales.size(), cudaMemcpyHostToDevice));
    op = ConstMxOperand(contiguous(static_cast<const void*>(data.ptr), h.rows, h.k, h.dtype,
                                   Memory::Device),
                        contiguous(static_cast<const void*>(scales.ptr), h.sshape.rows,
                                   h.sshape.cols, DType::E8M0, Memory::Device),
                        h.layout);
  }
};

RunResult run_gpu(const HostMx& a, const HostMx& b, float alpha, DType out, int iters) {
  const std::int64_t m = a.rows, n = b.rows;
  const std::size_t bytes = static_cast<std::size_t>(m * n * dtype_size(out));
  DeviceMx da(a), db(b);
  DeviceBuffer dalpha(sizeof(float)), dd(bytes);
  MXGEMM_CUDA_CHECK(cudaMemcpy(dalpha.ptr, &alpha, sizeof(float), cudaMemcpyHostToDevice));
  const MatrixView dview = contiguous(dd.ptr, m, n, out, Memory::Device);
  const auto* alpha_dev = static_cast<const float*>(dalpha.ptr);
  Stream stream;
  RunResult r;

  // Warm-up, and the run that is checked: D poisoned with 0xFF (NaN in every output type)
  // so that an output the kernel fails to write shows up as a NaN.
  MXGEMM_CUDA_CHECK(cudaMemsetAsync(dd.ptr, 0xFF, bytes, stream.s));
  mxfp8_scaled_mm(da.op, db.op, alpha_dev, dview, stream.s);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
  MXGEMM_CUDA_CHECK(cudaStreamSynchronize(stream.s));
  r.d.resize(bytes);
  MXGEMM_CUDA_CHECK(cudaMemcpy(r.d.data(), dd.ptr, bytes, cudaMemcpyDeviceToHost));

  // Timed runs, one event pair each, queued back to back; the median is reported.
  std::vector<Event> start(static_cast<std::size_t>(iters)), stop(static_cast<std::size_t>(iters));
  for (int i = 0; i < iters; ++i) {
    MXGEMM_CUDA_CHECK(cudaEventRecord(start[i].e, stream.s));
    mxfp8_scaled_mm(da.op, db.op, alpha_dev, dview, stream.s, /*skip_checks=*/true);
    MXGEMM_CUDA_CHECK(cudaEventRecord(stop[i].e, stream.s));
  }
  MXGEMM_CUDA_CHECK(cudaGetLastError());
  MXGEMM_CUDA_CHECK(cudaStreamSynchronize(stream.s));
  for (int i = 0; i < iters; ++i) {
    float ms = 0.0f;
    MXGEMM_CUDA_CHECK(cudaEventElapsedTime(&ms, start[i].e, stop[i].e));
    r.times_ms.push_back(ms);
  }
  std::vector<std::uint8_t> last(bytes);
  MXGEMM_CUDA_CHECK(cudaMemcpy(last.data(), dd.ptr, bytes, cudaMemcpyDeviceToHost));
  r.deterministic = last == r.d;
  return r;
}

// ---------------------------------------------------------------------------------------

// Largest relative spacing of the output type: one unit in the last place.
double out_eps(DType out) {
  return out == DType::BF16 ? 0x1p-7 : out == DType::FP16 ? 0x1p-10 : 0x1p-23;
}

int run(const Options& o) {
  const DType dtype = o.dtype == "e5m2" ? DType::E5M2 : DType::E4M3;
  const ScaleRounding rounding = o.rounding == "rceil" ? ScaleRounding::RCeil : ScaleRounding::Floor;
  const ScaleLayout layout = o.layout == "linear" ? ScaleLayout::Linear : ScaleLayout::Swizzled128x4;
  const DType out = o.out == "fp16" ? DType::FP16 : o.out == "fp32" ? DType::FP32 : DType::BF16;

  std::printf("mxgemm_cli: D = alpha * A x B^T, MXFP8 (OCP MX) block-scaled GEMM\n");
  std::printf("shape: M=%lld N=%lld K=%lld\n", static_cast<long long>(o.m),
              static_cast<long long>(o.n), static_cast<long long>(o.k));
  std::printf("dtypes: A=%s B=%s scales=e8m0 (%s, %s rounding) D=%s alpha=%g seed=%llu\n",
              dtype_name(dtype), dtype_name(dtype), layout_name(layout), rounding_name(rounding),
              dtype_name(out), static_cast<double>(o.alpha),
              static_cast<unsigned long long>(o.seed));

  // Which backend. gemm_backend() never throws; it says why no GPU backend can run.
  const BackendInfo info = gemm_backend();
  bool use_gpu = false;
  std::string backend_line;
  if (o.backend == "gpu") {
    if (!info.available)
      throw UnsupportedError("--backend gpu: no GPU backend is available: " + info.reason);
    use_gpu = true;
  } else if (o.backend == "auto") {
    use_gpu = info.available;
  }
  if (use_gpu) backend_line = "gpu " + info.name;
  else if (o.backend == "cpu") backend_line = "cpu reference (--backend cpu)";
  else backend_line = "cpu reference (no GPU backend: " + info.reason + ")";
  std::printf("backend: %s\n", backend_line.c_str());
  std::fflush(stdout);

  // Inputs: normal(0, 1) fp32, A then B from one generator seeded by --seed.
  std::mt19937_64 gen(o.seed);
  const std::vector<float> a32 = random_matrix(gen, o.m, o.k);
  const std::vector<float> b32 = random_matrix(gen, o.n, o.k);
  HostMx a = quantize(a32, o.m, o.k, dtype, layout, rounding);
  HostMx b = quantize(b32, o.n, o.k, dtype, layout, rounding);

  const int iters = o.iters > 0 ? o.iters : (use_gpu ? 20 : 3);
  RunResult r = use_gpu ? run_gpu(a, b, o.alpha, out, iters) : run_cpu(a, b, o.alpha, out, iters);
  const double t_ms = median(r.times_ms);
  const double flops = 2.0 * static_cast<double>(o.m) * static_cast<double>(o.n) *
                       static_cast<double>(o.k);
  std::printf("time: %.3f ms (median of %d run%s)\n", t_ms, iters, iters == 1 ? "" : "s");
  std::printf("TFLOP/s: %.4g\n", t_ms > 0.0 ? flops / (t_ms * 1e-3) / 1e12 : 0.0);

  // The check.
  const std::vector<double> got = decode_output(r.d, out);
  std::vector<double> ref;
  double tol;
  if (use_gpu) {
    // Exact oracle: fp64 accumulation rounded once. The kernel accumulates in fp32, so
    // allow one output ulp plus the fp32 accumulation error (~ sqrt(K) fp32 ulps).
    std::vector<std::uint8_t> refbytes(r.d.size(), 0xFF);
    mxfp8_scaled_mm_reference(a.view(), b.view(), o.alpha,
                              contiguous(static_cast<void*>(refbytes.data()), o.m, o.n, out,
                                         Memory::Host));
    ref = decode_output(refbytes, out);
    tol = out_eps(out) + 8.0 * std::sqrt(static_cast<double>(o.k)) * 0x1p-24;
    std::printf("check: vs mxfp8_scaled_mm_reference (exact fp64 oracle), tolerance %.3g\n", tol);
  } else {
    // The reference is exact by construction; what is left to measure is how far MXFP8
    // is from the fp32 data it came from. A generous bound for normal random data: one
    // element ulp (2^-3 for E4M3, 2^-2 for E5M2), relative.
    ref = fp64_product(a32, b32, o.m, o.n, o.k, static_cast<double>(o.alpha));
    tol = dtype == DType::E5M2 ? 0x1p-2 : 0x1p-3;
    std::printf("check: vs fp64 product of the unquantized fp32 inputs "
                "(MXFP8 quantization error), tolerance %.3g\n", tol);
  }
  const Comparison c = compare(got, ref);
  std::printf("relative Frobenius error: %.4e\n", c.rel_fro);
  std::printf("max abs error: %.4e\n", c.max_abs);
  std::printf("NaN outputs: %lld (reference: %lld)\n", static_cast<long long>(c.nan_got),
              static_cast<long long>(c.nan_ref));
  std::printf("determinism: %s\n", r.deterministic ? "bitwise identical on rerun"
                                                   : "MISMATCH: a rerun gave different bytes");

  std::vector<std::string> failures;
  if (!(c.rel_fro <= tol)) failures.push_back("relative error above tolerance");
  if (c.nan_got != c.nan_ref) failures.push_back("NaN count differs from the reference");
  if (c.nonfinite_mismatch) failures.push_back(std::to_string(c.nonfinite_mismatch) +
                                               " outputs non-finite where the reference is not");
  if (!r.deterministic) failures.push_back("not bitwise deterministic");
  if (failures.empty()) {
    std::printf("PASS\n");
    return 0;
  }
  std::string why;
  for (const auto& f : failures) why += (why.empty() ? "" : "; ") + f;
  std::printf("FAIL: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"mxgemm_cli: quantize random fp32 matrices to MXFP8, multiply them "
               "(D = alpha * A x B^T, A: M x K, B: N x K) and check the result.\n"
               "Exit code: 0 PASS, 1 FAIL, 2 usage error or no backend can run."};
  app.option_defaults()->always_capture_default();
  app.add_option("--m", o.m, "rows of A and D")->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  app.add_option("--n", o.n, "rows of B, columns of D")->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  app.add_option("--k", o.k, "reduction dimension (K >= 16, K % 16 == 0)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  app.add_option("--dtype", o.dtype, "fp8 element type of A and B")->check(CLI::IsMember({"e4m3", "e5m2"}));
  app.add_option("--rounding", o.rounding, "shared-exponent rule of the quantizer")
      ->check(CLI::IsMember({"floor", "rceil"}));
  app.add_option("--layout", o.layout, "scale layout (swizzled = 128x4 tiles)")
      ->check(CLI::IsMember({"swizzled", "linear"}));
  app.add_option("--out", o.out, "output type of D")->check(CLI::IsMember({"bf16", "fp16", "fp32"}));
  app.add_option("--alpha", o.alpha, "fp32 scale applied to the product");
  app.add_option("--seed", o.seed, "random seed of A and B");
  app.add_option("--backend", o.backend, "auto: the GPU when a GPU backend is available, else the CPU reference")
      ->check(CLI::IsMember({"auto", "gpu", "cpu"}));
  app.add_option("--iters", o.iters, "timed repetitions (0: 20 on the GPU, 3 on the CPU reference)")
      ->check(CLI::Range(0, 1000000));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    return run(o);
  } catch (const mxgemm::Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
