// Exceptions thrown by mxgemm. Every message names the argument, the expected and the
// actual value, e.g. "mxfp8_scaled_mm: a.cols (K) must equal b.cols (K): expected 4096, got 4080".
#pragma once

#include <stdexcept>
#include <string>

namespace mxgemm {

// Base class of everything mxgemm throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A value is wrong: shape, stride, alignment, pointer, layout (Python: ValueError).
class ArgumentError : public Error {
 public:
  using Error::Error;
};

// An element type is wrong for this argument (Python: TypeError).
class DtypeError : public Error {
 public:
  using Error::Error;
};

// The request is valid but nothing here can run it: no GPU, an unsupported
// architecture, a backend not built in (Python: RuntimeError).
class UnsupportedError : public Error {
 public:
  using Error::Error;
};

// A CUDA runtime or driver call failed; the message carries the call, file:line and
// the decoded CUDA error (Python: RuntimeError).
class CudaError : public Error {
 public:
  using Error::Error;
};

}  // namespace mxgemm
