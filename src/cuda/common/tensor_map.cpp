#include "cuda/common/tensor_map.hpp"

#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>

#include "core/check.hpp"

namespace mxgemm::cuda {
namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_fn() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* ptr = nullptr;
    cudaDriverEntryPointQueryResult status{};
    MXGEMM_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &ptr, 12000,
                                                       cudaEnableDefault, &status));
    if (status != cudaDriverEntryPointSuccess || ptr == nullptr)
      throw CudaError("cuTensorMapEncodeTiled: driver entry point not found");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(ptr);
  }();
  return fn;
}

}  // namespace

CUtensorMap make_tensor_map_2d_u8(const void* base, std::int64_t rows, std::int64_t cols,
                                  std::int64_t row_pitch, int box_rows, int box_cols,
                                  CUtensorMapSwizzle swizzle, CUtensorMapL2promotion promotion) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(row_pitch)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t elem_strides[2] = {1, 1};
  const CUresult r = encode_tiled_fn()(
      &map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<void*>(base), dims, strides, box,
      elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, promotion,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw CudaError(detail::concat("cuTensorMapEncodeTiled failed with CUresult ", static_cast<int>(r),
                                   " (rows ", rows, ", cols ", cols, ", pitch ", row_pitch, ", box ",
                                   box_rows, "x", box_cols, ")"));
  return map;
}

}  // namespace mxgemm::cuda
