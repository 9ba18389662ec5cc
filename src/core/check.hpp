// Internal: throwing checks. Messages name the function, the argument, the expected and
// the actual value; CUDA failures carry the call, file:line and the decoded error.
#pragma once

#include <cuda_runtime_api.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

#include "mxgemm/errors.hpp"

namespace mxgemm::detail {

// Appends one message piece, formatted as an ostream would (integers in decimal, floating
// point as %g, bool as 1/0). Not through iostreams: a toolchain that links libstdc++
// statically into the Python extension (the GPU machine's does) leaves the locale of a
// dlopen'ed module uninitialised, and the first ostringstream there crashed.
template <typename T>
void append_piece(std::string& out, const T& v) {
  using U = std::decay_t<T>;
  if constexpr (std::is_same_v<U, char>) {
    out.push_back(v);
  } else if constexpr (std::is_same_v<U, bool>) {
    out.push_back(v ? '1' : '0');
  } else if constexpr (std::is_integral_v<U>) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  } else if constexpr (std::is_floating_point_v<U>) {
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    out.append(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  } else {
    static_assert(std::is_convertible_v<const T&, std::string_view>,
                  "concat: unsupported message piece type");
    out.append(std::string_view(v));
  }
}

template <typename... Parts>
std::string concat(const Parts&... parts) {
  std::string out;
  (append_piece(out, parts), ...);
  return out;
}

// "0x..." in lowercase hex, for addresses in messages.
inline std::string hex_address(std::uintptr_t addr) {
  char buf[2 + 16];
  const auto r = std::to_chars(buf + 2, buf + sizeof buf, addr, 16);
  buf[0] = '0';
  buf[1] = 'x';
  return std::string(buf, r.ptr);
}

// Throws E with "<fn>: <arg>: expected <expected>, got <actual>".
template <typename E = ArgumentError, typename Exp, typename Act>
[[noreturn]] void fail(const char* fn, const std::string& arg, const Exp& expected,
                       const Act& actual) {
  throw E(concat(fn, ": ", arg, ": expected ", expected, ", got ", actual));
}

[[noreturn]] inline void throw_cuda(cudaError_t err, const char* call, const char* file,
                                    int line) {
  throw CudaError(concat(call, " failed at ", file, ":", line, ": ", cudaGetErrorName(err),
                         " (", cudaGetErrorString(err), ")"));
}

}  // namespace mxgemm::detail

// Check a CUDA runtime call; throws mxgemm::CudaError on failure.
#define MXGEMM_CUDA_CHECK(call)                                                    \
  do {                                                                             \
    const cudaError_t mxgemm_err_ = (call);                                        \
    if (mxgemm_err_ != cudaSuccess)                                                \
      ::mxgemm::detail::throw_cuda(mxgemm_err_, #call, __FILE__, __LINE__);        \
  } while (0)
