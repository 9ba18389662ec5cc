// Internal: throwing checks. Messages name the function, the argument, the expected and
// the actual value; CUDA failures carry the call, file:line and the decoded error.
#pragma once

#include <cuda_runtime_api.h>

#include <sstream>
#include <string>
#include <utility>

#include "mxgemm/errors.hpp"

namespace mxgemm::detail {

template <typename... Parts>
std::string concat(Parts&&... parts) {
  std::ostringstream os;
  (os << ... << std::forward<Parts>(parts));
  return os.str();
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
