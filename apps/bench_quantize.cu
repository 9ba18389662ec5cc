// Bandwidth of the MXFP8 quantizers and the dequantizer against a device-to-device copy,
// measured in one run on the current GPU.
//
//   bench_quantize [--rows R] [--cols K] [--iters N] [--warmup W]
//
// Every operation goes through the public API (validation and dispatch included). Each
// timed run is preceded by a short spin kernel so that the host work of the call (argument
// checks, driver queries, launch) is queued behind it and stays out of the CUDA-event time.
// Inputs and outputs rotate among enough buffers that their total exceeds three L2s, so no
// run reads what the previous one left in L2. Bytes counted: every input byte read once
// plus every output byte written once (scales included, swizzled padding included);
// GB/s = 1e9 bytes/s; "% copy" is GB/s over the copy's (bytes read + written) GB/s.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "mxgemm/mxgemm.hpp"

namespace {

using mxgemm::DType;
using mxgemm::Memory;

// Busy-waits about `ns` nanoseconds on the GPU.
__global__ void spin_kernel(long long ns) {
  const long long start = clock64();
  // clock64 counts SM cycles; ~2 GHz is close enough for a delay.
  while (clock64() - start < ns * 2) {
  }
}

// Fills n bf16 values with a deterministic spread of magnitudes and signs (never all zero):
// a hash per element gives the mantissa and sign, a hash per 32-block the binade.
__global__ void fill_bf16(std::uint16_t* p, std::int64_t n, std::uint32_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    std::uint32_t b = static_cast<std::uint32_t>(i / 32) * 3266489917u ^ seed;
    b ^= b >> 16;
    const std::uint32_t exp = 127 - 12 + (b % 24);  // 2^-12 .. 2^11
    p[i] = static_cast<std::uint16_t>(((h & 1u) << 15) | (exp << 7) | ((h >> 1) & 0x7Fu));
  }
}

struct Args {
  std::int64_t rows = 8192, cols = 8192;
  int iters = 100, warmup = 10;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    const auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", s.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (s == "--rows") a.rows = std::atoll(next());
    else if (s == "--cols") a.cols = std::atoll(next());
    else if (s == "--iters") a.iters = std::atoi(next());
    else if (s == "--warmup") a.warmup = std::atoi(next());
    else {
      std::printf(
          "usage: bench_quantize [--rows R=8192] [--cols K=8192] [--iters N=100] [--warmup W=10]\n"
          "Times quantize_mxfp8 (rowwise), quantize_mxfp8_columnwise and dequantize_mxfp8 on a\n"
          "BF16 R x K matrix against a device-to-device copy; medians of N CUDA-event timings.\n");
      std::exit(s == "--help" || s == "-h" ? 0 : 2);
    }
  }
  if (a.rows < 1 || a.cols < 1 || a.iters < 1 || a.warmup < 0) {
    std::fprintf(stderr, "bad arguments\n");
    std::exit(2);
  }
  return a;
}

// Median GPU time (ms) of `iters` runs of op(i), each behind a spin kernel of `spin_ns`.
double time_median_ms(int warmup, int iters, long long spin_ns,
                      const std::function<void(int)>& op) {
  for (int i = 0; i < warmup; ++i) op(i);
  MXGEMM_CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  MXGEMM_CUDA_CHECK(cudaEventCreate(&start));
  MXGEMM_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms(static_cast<size_t>(iters));
  for (int i = 0; i < iters; ++i) {
    spin_kernel<<<1, 1>>>(spin_ns);
    MXGEMM_CUDA_CHECK(cudaEventRecord(start));
    op(warmup + i);
    MXGEMM_CUDA_CHECK(cudaEventRecord(stop));
    MXGEMM_CUDA_CHECK(cudaEventSynchronize(stop));
    MXGEMM_CUDA_CHECK(cudaEventElapsedTime(&ms[static_cast<size_t>(i)], start, stop));
  }
  MXGEMM_CUDA_CHECK(cudaEventDestroy(start));
  MXGEMM_CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Mean host-side time (us) of one call of op, queued without waiting on the GPU.
double host_us_per_call(int calls, const std::function<void(int)>& op) {
  MXGEMM_CUDA_CHECK(cudaDeviceSynchronize());
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) op(i);
  const auto t1 = std::chrono::steady_clock::now();
  MXGEMM_CUDA_CHECK(cudaDeviceSynchronize());
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / calls;
}

void* device_alloc(std::size_t bytes) {
  void* p = nullptr;
  MXGEMM_CUDA_CHECK(cudaMalloc(&p, bytes));
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  const std::int64_t R = a.rows, K = a.cols;
  int dev = 0;
  MXGEMM_CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  MXGEMM_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  const std::size_t l2 = static_cast<std::size_t>(prop.l2CacheSize);

  const std::size_t x_bytes = static_cast<std::size_t>(R * K * 2);
  const mxgemm::ScaleShape rs = mxgemm::scale_shape(R, K, mxgemm::ScaleLayout::Swizzled128x4);
  const mxgemm::ScaleShape cs = mxgemm::scale_shape(K, R, mxgemm::ScaleLayout::Swizzled128x4);
  const std::size_t q_bytes = static_cast<std::size_t>(R * K);
  const std::size_t rs_bytes = static_cast<std::size_t>(rs.rows * rs.cols);
  const std::size_t cs_bytes = static_cast<std::size_t>(cs.rows * cs.cols);
  // Enough sets that each operation's buffers together exceed 3 x L2.
  const int sets = static_cast<int>(std::max<std::size_t>(3, 3 * l2 / q_bytes + 1));

  std::vector<void*> xs, qs, ss, qts, sts, outs;
  for (int i = 0; i < sets; ++i) {
    xs.push_back(device_alloc(x_bytes));
    qs.push_back(device_alloc(q_bytes));
    ss.push_back(device_alloc(rs_bytes));
    qts.push_back(device_alloc(q_bytes));
    sts.push_back(device_alloc(cs_bytes));
    outs.push_back(device_alloc(x_bytes));
    fill_bf16<<<1024, 256>>>(static_cast<std::uint16_t*>(xs.back()), R * K, 0x9E3779B9u * (i + 1));
    MXGEMM_CUDA_CHECK(cudaGetLastError());
  }
  const auto x_view = [&](int i) {
    return mxgemm::contiguous<const void>(xs[i % sets], R, K, DType::BF16, Memory::Device);
  };
  const auto q_op = [&](int i) {
    return mxgemm::MxOperand(
        mxgemm::contiguous<void>(qs[i % sets], R, K, DType::E4M3, Memory::Device),
        mxgemm::contiguous<void>(ss[i % sets], rs.rows, rs.cols, DType::E8M0, Memory::Device),
        mxgemm::ScaleLayout::Swizzled128x4);
  };
  const auto qt_op = [&](int i) {
    return mxgemm::MxOperand(
        mxgemm::contiguous<void>(qts[i % sets], K, R, DType::E4M3, Memory::Device),
        mxgemm::contiguous<void>(sts[i % sets], cs.rows, cs.cols, DType::E8M0, Memory::Device),
        mxgemm::ScaleLayout::Swizzled128x4);
  };

  // The copy: one buffer pair of at least 3 x L2 each way (about 2 x 256 MiB for 8192^2).
  const std::size_t copy_bytes = std::max<std::size_t>(x_bytes * 2, 3 * l2);
  void* csrc = device_alloc(copy_bytes);
  void* cdst = device_alloc(copy_bytes);
  MXGEMM_CUDA_CHECK(cudaMemset(csrc, 0x3C, copy_bytes));

  // Bring the clocks up (some 50 ms of copies and quantizations) before anything is timed.
  for (int i = 0; i < 200; ++i) {
    MXGEMM_CUDA_CHECK(cudaMemcpyAsync(cdst, csrc, copy_bytes, cudaMemcpyDeviceToDevice));
    mxgemm::quantize_mxfp8(x_view(i), q_op(i), mxgemm::ScaleRounding::Floor);
  }
  MXGEMM_CUDA_CHECK(cudaDeviceSynchronize());

  // The host side of one call, measured first: the spin before each timed run outlasts it.
  const double host_us = host_us_per_call(
      50, [&](int i) { mxgemm::quantize_mxfp8(x_view(i), q_op(i), mxgemm::ScaleRounding::Floor); });
  const long long spin_ns = static_cast<long long>(std::max(200.0, 3.0 * host_us) * 1e3);

  struct Row {
    std::string name;
    double ms, bytes;
  };
  std::vector<Row> rows;
  const double copy_ms = time_median_ms(a.warmup, a.iters, spin_ns, [&](int) {
    MXGEMM_CUDA_CHECK(cudaMemcpyAsync(cdst, csrc, copy_bytes, cudaMemcpyDeviceToDevice));
  });
  rows.push_back({"d2d copy (cudaMemcpyAsync)", copy_ms, 2.0 * copy_bytes});

  for (auto rounding : {mxgemm::ScaleRounding::Floor, mxgemm::ScaleRounding::RCeil}) {
    const double ms = time_median_ms(a.warmup, a.iters, spin_ns, [&](int i) {
      mxgemm::quantize_mxfp8(x_view(i), q_op(i), rounding);
    });
    rows.push_back({std::string("quantize rowwise bf16->e4m3 ") + mxgemm::rounding_name(rounding),
                    ms, double(x_bytes + q_bytes + rs_bytes)});
  }
  for (auto rounding : {mxgemm::ScaleRounding::Floor, mxgemm::ScaleRounding::RCeil}) {
    const double ms = time_median_ms(a.warmup, a.iters, spin_ns, [&](int i) {
      mxgemm::quantize_mxfp8_columnwise(x_view(i), qt_op(i), rounding);
    });
    rows.push_back({std::string("quantize columnwise bf16->e4m3 ") + mxgemm::rounding_name(rounding),
                    ms, double(x_bytes + q_bytes + cs_bytes)});
  }
  // Dequantize what the rowwise quantizer wrote (every set holds a quantized input now).
  const double dq_ms = time_median_ms(a.warmup, a.iters, spin_ns, [&](int i) {
    mxgemm::dequantize_mxfp8(q_op(i),
                             mxgemm::contiguous<void>(outs[i % sets], R, K, DType::BF16, Memory::Device));
  });
  rows.push_back({"dequantize e4m3->bf16", dq_ms, double(q_bytes + rs_bytes + x_bytes)});

  const double copy_gbs = rows[0].bytes / (copy_ms * 1e6);
  std::printf("# %s, %d SMs, L2 %zu MB; shape %lldx%lld bf16; median of %d runs after %d warm-up;"
              " %d buffer sets rotated\n",
              prop.name, prop.multiProcessorCount, l2 >> 20, static_cast<long long>(R),
              static_cast<long long>(K), a.iters, a.warmup, sets);
  std::printf("# host time of one quantize_mxfp8 call (validation + dispatch + launch): %.1f us\n",
              host_us);
  std::printf("%-40s %10s %12s %10s %8s\n", "operation", "time (us)", "bytes (MB)", "GB/s", "% copy");
  for (const Row& r : rows) {
    const double gbs = r.bytes / (r.ms * 1e6);
    std::printf("%-40s %10.1f %12.1f %10.0f %7.1f%%\n", r.name.c_str(), r.ms * 1e3, r.bytes / 1e6,
                gbs, 100.0 * gbs / copy_gbs);
  }
  for (void* p : xs) cudaFree(p);
  for (void* p : qs) cudaFree(p);
  for (void* p : ss) cudaFree(p);
  for (void* p : qts) cudaFree(p);
  for (void* p : sts) cudaFree(p);
  for (void* p : outs) cudaFree(p);
  cudaFree(csrc);
  cudaFree(cdst);
  return 0;
}
