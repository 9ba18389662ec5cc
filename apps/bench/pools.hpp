// Part of mxgemm_bench (apps/bench_gemm.cu), its only translation unit: the host inputs: random
// pools, their MXFP8, BF16 and per-tensor E4M3 forms.
#pragma once

#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "bench/host_util.hpp"
#include "bench/options.hpp"

namespace mxgemm::bench {

// Host inputs. One pool per (operand role, K): rows x K normal(0, 1) fp32 with everything
// derived from it. A shape's operand is the pool's first R rows: quantization works row by
// row, so the prefix of the quantized pool is the quantized prefix, and the swizzled scales
// of a prefix are a prefix of the bytes (128-row tiles are outermost). Rows past R in the
// last 128-row tile then sit in the padding, which must never change D.

struct Pool {
  i64 rows = 0, k = 0;
  ScaleShape sshape{0, 0};
  std::vector<float> x;               // fp32 data
  std::vector<float> row_amax;        // max |x| of each row
  std::vector<std::uint8_t> q, s;     // MXFP8: E4M3 codes, swizzled E8M0 scales (Floor)
  std::vector<std::uint16_t> bf;      // dequantize_mxfp8_reference(q, s) as BF16 (exact)
  // E4M3 with one scale per tensor, for the last prefix asked for.
  i64 pt_rows = -1;
  float pt_scale = 1.0f;
  std::vector<std::uint8_t> pt;

  std::size_t scale_bytes(i64 r) const {
    return static_cast<std::size_t>(scale_shape(r, k, ScaleLayout::Swizzled128x4).rows * sshape.cols);
  }
  ConstMxOperand host_op(i64 r) const {
    const ScaleShape ss = scale_shape(r, k, ScaleLayout::Swizzled128x4);
    return ConstMxOperand(contiguous(static_cast<const void*>(q.data()), r, k, DType::E4M3, Memory::Host),
                          contiguous(static_cast<const void*>(s.data()), ss.rows, ss.cols,
                                     DType::E8M0, Memory::Host),
                          ScaleLayout::Swizzled128x4);
  }
};

inline std::unique_ptr<Pool> make_pool(i64 rows, i64 k, std::uint64_t seed) {
  auto p = std::make_unique<Pool>();
  p->rows = rows;
  p->k = k;
  p->sshape = scale_shape(rows, k, ScaleLayout::Swizzled128x4);
  const auto n = static_cast<std::size_t>(rows * k);
  p->x.resize(n);
  p->row_amax.resize(static_cast<std::size_t>(rows));
  // Fixed chunks of 64 rows, one generator each: the data depend on the seed alone.
  constexpr i64 kChunk = 64;
  const i64 chunks = (rows + kChunk - 1) / kChunk;
  parallel_for(chunks, [&](i64 c0, i64 c1) {
    for (i64 c = c0; c < c1; ++c) {
      std::mt19937_64 gen(splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(c))));
      std::normal_distribution<float> dist(0.0f, 1.0f);
      for (i64 r = c * kChunk; r < std::min(rows, (c + 1) * kChunk); ++r) {
        float amax = 0.0f;
        float* row = &p->x[static_cast<std::size_t>(r * k)];
        for (i64 i = 0; i < k; ++i) {
          float v = dist(gen);
          if (v == 0.0f) v = 1.0f;  // never zeros
          row[i] = v;
          amax = std::max(amax, std::fabs(v));
        }
        p->row_amax[static_cast<std::size_t>(r)] = amax;
      }
    }
  });
  p->q.resize(n);
  p->s.resize(static_cast<std::size_t>(p->sshape.rows * p->sshape.cols));
  p->bf.resize(n);
  const MxOperand qop(contiguous(static_cast<void*>(p->q.data()), rows, k, DType::E4M3, Memory::Host),
                      contiguous(static_cast<void*>(p->s.data()), p->sshape.rows, p->sshape.cols,
                                 DType::E8M0, Memory::Host),
                      ScaleLayout::Swizzled128x4);
  quantize_mxfp8_reference(contiguous(static_cast<const void*>(p->x.data()), rows, k, DType::FP32,
                                      Memory::Host),
                           qop, ScaleRounding::Floor);
  dequantize_mxfp8_reference(qop, contiguous(static_cast<void*>(p->bf.data()), rows, k,
                                             DType::BF16, Memory::Host));
  return p;
}

// The first r rows of the pool as E4M3 with one scale: scale = amax / 448, q = e4m3(x / scale)
// (round to nearest even, saturating).
inline void make_per_tensor(Pool& p, i64 r) {
  if (p.pt_rows == r) return;
  float amax = 0.0f;
  for (i64 i = 0; i < r; ++i) amax = std::max(amax, p.row_amax[static_cast<std::size_t>(i)]);
  const float scale = amax > 0.0f ? amax / 448.0f : 1.0f;
  p.pt.resize(static_cast<std::size_t>(r * p.k));
  parallel_for(r, [&](i64 r0, i64 r1) {
    for (std::size_t i = static_cast<std::size_t>(r0 * p.k); i < static_cast<std::size_t>(r1 * p.k); ++i)
      p.pt[i] = __nv_cvt_float_to_fp8(p.x[i] / scale, __NV_SATFINITE, __NV_E4M3);
  });
  p.pt_rows = r;
  p.pt_scale = scale;
}

// Pools for a list of shapes: per K, one A pool (max M rows) and one B pool (max N rows).

struct Pools {
  std::map<std::pair<int, i64>, std::unique_ptr<Pool>> by_key;  // (0: A, 1: B; K)
  Pool& a(const Shape& s) { return *by_key.at({0, s.k}); }
  Pool& b(const Shape& s) { return *by_key.at({1, s.k}); }
};

inline Pools make_pools(const std::vector<Shape>& shapes, std::uint64_t seed) {
  std::map<std::pair<int, i64>, i64> rows;
  for (const Shape& s : shapes) {
    rows[{0, s.k}] = std::max(rows[{0, s.k}], s.m);
    rows[{1, s.k}] = std::max(rows[{1, s.k}], s.n);
  }
  Pools p;
  for (const auto& [key, r] : rows) {
    const std::uint64_t pool_seed =
        splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(key.second) * 2 + key.first));
    p.by_key[key] = make_pool(r, key.second, pool_seed);
  }
  return p;
}

}  // namespace mxgemm::bench
