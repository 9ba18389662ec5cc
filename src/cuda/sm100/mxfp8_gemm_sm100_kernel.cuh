// The sm_100a MXFP8 GEMM through CUTLASS's block-scaled collective builder, configured as
// the original nvFuser `mxfp8_scaled_mm`: MMA tile 256x256x256 on a 2x4x1 cluster (2-SM
// MMA, 128x256 per SM), mx_float8_t<e4m3> operands with UE8M0 scales in the swizzled 128x4
// layout (CUTLASS's SfKMajorAtom, the same bytes as ScaleLayout::Swizzled128x4), alpha read
// from device memory by the epilogue, no C operand. Included by one translation unit per
// output type.
#pragma once

#include <cutlass/cutlass.h>

#include <cute/tensor.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/util/packed_stride.hpp>

#include "core/check.hpp"
#include "cuda/common/workspace.hpp"
#include "cuda/sm100/mxfp8_gemm_sm100.hpp"

namespace mxgemm::sm100 {

template <typename ElementD>
struct Mxfp8GemmSm100Config {
  using ElementA = cutlass::mx_float8_t<cutlass::float_e4m3_t>;
  using ElementB = cutlass::mx_float8_t<cutlass::float_e4m3_t>;
  using LayoutA = cutlass::layout::RowMajor;     // M x K, K contiguous
  using LayoutB = cutlass::layout::ColumnMajor;  // K x N column-major == N x K, K contiguous
  using LayoutD = cutlass::layout::RowMajor;
  static constexpr int kAlignmentAB = 16;  // elements: 16 bytes of fp8
  static constexpr int kAlignmentD = 128 / cutlass::sizeof_bits<ElementD>::value;
  using MmaTileShape = cute::Shape<cute::_256, cute::_256, cute::_256>;
  using ClusterShape = cute::Shape<cute::_2, cute::_4, cute::_1>;

  static_assert(kAlignmentD == 8, "16-bit outputs in 16-byte vectors (validate_gemm_sm100_support)");

  using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm100, cutlass::arch::OpClassBlockScaledTensorOp, MmaTileShape, ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float,
      void, LayoutD, kAlignmentD,  // no C operand
      ElementD, LayoutD, kAlignmentD,
      cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;

  using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm100, cutlass::arch::OpClassBlockScaledTensorOp, ElementA, LayoutA,
      kAlignmentAB, ElementB, LayoutB, kAlignmentAB, float, MmaTileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
          sizeof(typename CollectiveEpilogue::SharedStorage))>,
      cutlass::gemm::collective::KernelScheduleAuto>::CollectiveOp;

  using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>,
                                                      CollectiveMainloop, CollectiveEpilogue, void>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
};

inline void check_cutlass(cutlass::Status status, const char* step) {
  if (status == cutlass::Status::kSuccess) return;
  const std::string msg = detail::concat("mxfp8_scaled_mm (sm_100, CUTLASS): ", step,
                                         " failed: ", cutlassGetStatusString(status));
  if (status == cutlass::Status::kErrorInternal || status == cutlass::Status::kErrorArchMismatch)
    throw CudaError(msg);
  if (std::string(step) == "can_implement") throw UnsupportedError(msg);
  throw CudaError(msg);
}

template <typename ElementD>
void run_mxfp8_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                    const MatrixView& d, cudaStream_t stream) {
  using Cfg = Mxfp8GemmSm100Config<ElementD>;
  using Gemm = typename Cfg::Gemm;
  using Mainloop = typename Cfg::CollectiveMainloop;
  using BlockScaledConfig = typename Mainloop::Sm1xxBlkScaledConfig;
  using Data = typename Cfg::ElementA::DataType;
  using Scale = typename Cfg::ElementA::ScaleFactorType;

  const int m = static_cast<int>(a.data.rows), n = static_cast<int>(b.data.rows),
            k = static_cast<int>(a.data.cols);
  auto stride_a = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideA{}, {m, k, 1});
  auto stride_b = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideB{}, {n, k, 1});
  auto stride_d = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideD{}, {m, n, 1});
  cute::get<0>(stride_a) = a.data.row_stride;  // the views' row strides, in elements
  cute::get<0>(stride_b) = b.data.row_stride;
  cute::get<0>(stride_d) = d.row_stride;
  const auto problem = cute::make_shape(m, n, k, 1);

  typename Gemm::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm,
      {m, n, k, 1},
      {static_cast<const Data*>(a.data.data), stride_a, static_cast<const Data*>(b.data.data),
       stride_b, static_cast<const Scale*>(a.scales.data),
       BlockScaledConfig::tile_atom_to_shape_SFA(problem),
       static_cast<const Scale*>(b.scales.data), BlockScaledConfig::tile_atom_to_shape_SFB(problem)},
      {{}, nullptr, typename Gemm::GemmKernel::StrideC{}, static_cast<ElementD*>(d.data), stride_d}};
  args.epilogue.thread.alpha_ptr = alpha;
  args.epilogue.thread.beta = 0.0f;

  Gemm gemm;
  check_cutlass(gemm.can_implement(args), "can_implement");
  void* workspace = cuda::device_workspace(Gemm::get_workspace_size(args), stream);
  check_cutlass(gemm.initialize(args, workspace, stream), "initialize");
  check_cutlass(gemm.run(stream), "run");
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace mxgemm::sm100
