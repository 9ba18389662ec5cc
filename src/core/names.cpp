#include "mxgemm/types.hpp"

namespace mxgemm {

const char* dtype_name(DType t) {
  switch (t) {
    case DType::E4M3: return "e4m3";
    case DType::E5M2: return "e5m2";
    case DType::E8M0: return "e8m0";
    case DType::BF16: return "bf16";
    case DType::FP16: return "fp16";
    case DType::FP32: return "fp32";
  }
  return "unknown dtype";
}

const char* memory_name(Memory m) { return m == Memory::Host ? "host" : "device"; }

const char* layout_name(ScaleLayout l) {
  return l == ScaleLayout::Linear ? "linear" : "swizzled128x4";
}

const char* k_order_name(KOrder o) { return o == KOrder::Prepacked ? "prepacked" : "natural"; }

const char* rounding_name(ScaleRounding r) { return r == ScaleRounding::Floor ? "floor" : "rceil"; }

}  // namespace mxgemm
