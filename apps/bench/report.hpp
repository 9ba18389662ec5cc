// Part of mxgemm_bench (apps/bench_gemm.cu), its only translation unit: the results table, its
// geometric means and the CSV.
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/options.hpp"
#include "bench/shape_bench.cuh"  // Method, MethodResult, PairCheck

namespace mxgemm::bench {

struct Row {
  Shape sh;
  MethodResult r[kMethods];
  PairCheck mx_vs_bf16, dq_vs_bf16, fp8_vs_bf16, tiled_vs_bf16;
  double floor_us = 0.0;  // memory floor: bytes that must move / copy bandwidth
  double spin_us = 0.0;   // the spin every method's timed runs waited behind (ShapeBench::time_all)
  std::string fp8_fallback;  // how cuBLASLt fp8 ran, when not its first heuristic choice
  bool pass = true;
  std::string failure;
};

inline double tflops(const Shape& s, const MethodResult& r) { return s.flops() / (r.med_us * 1e-6) / 1e12; }
inline bool has_ratio(const Row& row, Method m) { return row.r[kMx].ran && row.r[m].ran; }
inline double ratio(const Row& row, Method m) { return row.r[m].med_us / row.r[kMx].med_us; }

inline void print_header() {
  std::printf("%-21s | %-17s | %-24s | %-24s | %-24s | %-24s | %-16s | %s\n", "", "mxgemm",
              "cuBLAS bf16 (pre-deq.)", "dequant + cuBLAS bf16", "cuBLASLt fp8 per-tensor",
              kMethodNames[kMxTiled], "memory floor", "check: mxgemm vs bf16");
  std::printf("%6s %6s %6s   | %9s %7s | %9s %7s %6s | %9s %7s %6s | %9s %7s %6s | %9s %7s %6s | %8s %7s | %s\n",
              "M", "N", "K", "us", "TFLOP/s", "us", "TFLOP/s", "ratio", "us", "TFLOP/s", "ratio", "us",
              "TFLOP/s", "ratio", "us", "TFLOP/s", "ratio", "us", "x floor", "sample / full rel. err / bad");
  std::fflush(stdout);
}

inline void print_row(const Row& row, double spin_floor_us) {
  char buf[512];
  int n = std::snprintf(buf, sizeof(buf), "%6lld %6lld %6lld   |", (long long)row.sh.m,
                        (long long)row.sh.n, (long long)row.sh.k);
  std::string line(buf, static_cast<std::size_t>(n));
  for (int mi = 0; mi < kMethods; ++mi) {
    const MethodResult& r = row.r[mi];
    if (r.ran) n = std::snprintf(buf, sizeof(buf), " %9.1f %7.1f", r.med_us, tflops(row.sh, r));
    else n = std::snprintf(buf, sizeof(buf), " %9s %7s", "n/a", "n/a");
    line.append(buf, static_cast<std::size_t>(n));
    if (mi != kMx) {
      if (has_ratio(row, static_cast<Method>(mi))) n = std::snprintf(buf, sizeof(buf), " %5.2fx", ratio(row, static_cast<Method>(mi)));
      else n = std::snprintf(buf, sizeof(buf), " %6s", "n/a");
      line.append(buf, static_cast<std::size_t>(n));
    }
    line += " |";
  }
  if (row.r[kMx].ran && row.floor_us > 0.0)
    n = std::snprintf(buf, sizeof(buf), " %8.1f %6.2fx |", row.floor_us, row.r[kMx].med_us / row.floor_us);
  else
    n = std::snprintf(buf, sizeof(buf), " %8s %7s |", "n/a", "n/a");
  line.append(buf, static_cast<std::size_t>(n));
  if (row.mx_vs_bf16.done)
    n = std::snprintf(buf, sizeof(buf), " %.1e / %.1e / %llu %s", row.mx_vs_bf16.sample_rel,
                      row.mx_vs_bf16.full_rel, row.mx_vs_bf16.mismatches, row.pass ? "ok" : "FAIL");
  else
    n = std::snprintf(buf, sizeof(buf), " %s", row.pass ? "unchecked" : "FAIL");
  line.append(buf, static_cast<std::size_t>(n));
  std::printf("%s\n", line.c_str());
  if (!row.pass) {
    std::printf("!!! FAIL %lldx%lldx%lld: %s\n", (long long)row.sh.m, (long long)row.sh.n,
                (long long)row.sh.k, row.failure.c_str());
    std::fprintf(stderr, "!!! FAIL %lldx%lldx%lld: %s\n", (long long)row.sh.m, (long long)row.sh.n,
                 (long long)row.sh.k, row.failure.c_str());
  }
  for (int mi = 0; mi < kMethods; ++mi)
    if (!row.r[mi].ran && !row.r[mi].why.empty())
      std::printf("    note: %s n/a: %s\n", kMethodNames[mi], row.r[mi].why.c_str());
  // Where a host side lengthened the shape's one spin, whose.
  if (row.spin_us > spin_floor_us) {
    int longest_host = kMx;
    for (int mi = 0; mi < kMethods; ++mi)
      if (row.r[mi].ran && row.r[mi].host_us > row.r[longest_host].host_us) longest_host = mi;
    std::printf("    note: every method waited behind a %.0f us spin, not %.0f: %s's host side takes %.1f us a call\n",
                row.spin_us, spin_floor_us, kMethodNames[longest_host], row.r[longest_host].host_us);
  }
  if (row.r[kFp8].ran && !row.fp8_fallback.empty())
    std::printf("    note: cuBLASLt fp8 ran with %s (cublasLtMatmul refused the earlier tries)\n",
                row.fp8_fallback.c_str());
  std::fflush(stdout);
}

struct Geomean {
  double v = 0.0;
  int count = 0;
};
inline Geomean geomean(const std::vector<Row>& rows, Method m) {
  Geomean g;
  double s = 0.0;
  for (const Row& r : rows)
    if (has_ratio(r, m)) {
      s += std::log(ratio(r, m));
      ++g.count;
    }
  g.v = g.count ? std::exp(s / g.count) : 0.0;
  return g;
}

inline void write_csv(const std::string& path, const std::vector<Row>& rows) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error("--csv: cannot open " + path + " for writing: " + std::strerror(errno));
  const char* keys[kMethods] = {"mxgemm", "bf16", "dq_bf16", "fp8", "tiled"};
  std::fprintf(f, "m,n,k");
  for (int mi = 0; mi < kMethods; ++mi) {
    std::fprintf(f, ",%s_us,%s_tflops", keys[mi], keys[mi]);
    if (mi != kMx) std::fprintf(f, ",ratio_%s", keys[mi]);
  }
  for (int mi = 0; mi < kMethods; ++mi)
    std::fprintf(f, ",%s_min_us,%s_max_us,%s_host_us", keys[mi], keys[mi], keys[mi]);
  std::fprintf(f, ",mx_vs_bf16_sample_rel,mx_vs_bf16_full_rel,mx_vs_bf16_mismatches,mx_vs_bf16_max_diff_over_rms,"
                  "mxgemm_nan,dq_vs_bf16_sample_rel,dq_vs_bf16_full_rel,fp8_vs_bf16_sample_rel,"
                  "tiled_vs_bf16_full_rel,floor_us,mxgemm_over_floor,spin_us,check\n");
  const auto num = [&](bool ok, double v) {
    if (ok) std::fprintf(f, ",%.6g", v);
    else std::fprintf(f, ",n/a");
  };
  for (const Row& r : rows) {
    std::fprintf(f, "%lld,%lld,%lld", (long long)r.sh.m, (long long)r.sh.n, (long long)r.sh.k);
    for (int mi = 0; mi < kMethods; ++mi) {
      num(r.r[mi].ran, r.r[mi].med_us);
      num(r.r[mi].ran, r.r[mi].ran ? tflops(r.sh, r.r[mi]) : 0.0);
      if (mi != kMx) num(has_ratio(r, static_cast<Method>(mi)), has_ratio(r, static_cast<Method>(mi)) ? ratio(r, static_cast<Method>(mi)) : 0.0);
    }
    for (int mi = 0; mi < kMethods; ++mi) {
      num(r.r[mi].ran, r.r[mi].min_us);
      num(r.r[mi].ran, r.r[mi].max_us);
      num(r.r[mi].ran, r.r[mi].host_us);
    }
    num(r.mx_vs_bf16.done, r.mx_vs_bf16.sample_rel);
    num(r.mx_vs_bf16.done, r.mx_vs_bf16.full_rel);
    num(r.mx_vs_bf16.done, double(r.mx_vs_bf16.mismatches));
    num(r.mx_vs_bf16.done && r.mx_vs_bf16.rms_ref > 0.0,
        r.mx_vs_bf16.rms_ref > 0.0 ? r.mx_vs_bf16.max_diff / r.mx_vs_bf16.rms_ref : 0.0);
    num(r.mx_vs_bf16.done, double(r.mx_vs_bf16.nan_got));
    num(r.dq_vs_bf16.done, r.dq_vs_bf16.sample_rel);
    num(r.dq_vs_bf16.done, r.dq_vs_bf16.full_rel);
    num(r.fp8_vs_bf16.done, r.fp8_vs_bf16.sample_rel);
    num(r.tiled_vs_bf16.done, r.tiled_vs_bf16.full_rel);
    num(r.floor_us > 0.0, r.floor_us);
    num(r.floor_us > 0.0 && r.r[kMx].ran, r.floor_us > 0.0 ? r.r[kMx].med_us / r.floor_us : 0.0);
    num(r.spin_us > 0.0, r.spin_us);
    std::fprintf(f, ",%s\n", r.pass ? "ok" : "FAIL");
  }
  // The geometric means, in the ratio columns of a last row.
  std::fprintf(f, "geomean,,");
  for (int mi = 0; mi < kMethods; ++mi) {
    std::fprintf(f, ",,");
    if (mi != kMx) {
      const Geomean g = geomean(rows, static_cast<Method>(mi));
      num(g.count > 0, g.v);
    }
  }
  for (int i = 0; i < 3 * kMethods + 13; ++i) std::fprintf(f, ",");
  std::fprintf(f, "\n");
  if (std::fclose(f) != 0) throw std::runtime_error("--csv: error writing " + path);
}

}  // namespace mxgemm::bench
