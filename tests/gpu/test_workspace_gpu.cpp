// The GPU GEMMs' scratch memory (include/mxgemm/workspace.hpp): a graph keeps working after an
// eager call outgrows the memory it captured, a capture that would have to grow it is refused
// without breaking the capture, release_gpu_workspace frees only what no graph holds, and calls
// on two streams or from two host threads take turns on it.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/expect_error.hpp"
#include "gpu/gemm_test_utils.hpp"

namespace mxgemm::testing {
namespace {

int current_device() {
  int device = 0;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  return device;
}

// A GEMM's device operands and output, called on `stream`; the output poisoned by poison().
struct DeviceGemm {
  HostMxOperand a, b;
  DeviceMxOperand da, db;
  HostOutput out;
  GuardedDeviceBuffer dd, dalpha;
  float alpha;

  DeviceGemm(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937& rng, float alpha_value)
      : a(random_mx_operand(m, k, rng)), b(random_mx_operand(n, k, rng)), da(a), db(b),
        out(DType::BF16, m, n), dd(out.bytes.size()), dalpha(sizeof(float)), alpha(alpha_value) {
    dalpha.upload(&alpha);
  }
  void poison_output() {
    mxgemm::testing::poison(out);
    dd.upload(out.bytes.data());
  }
  void call(cudaStream_t stream) {
    MatrixView dv = out.view(Memory::Device);
    dv.data = dd.data();
    mxfp8_scaled_mm(da.view, db.view, static_cast<const float*>(dalpha.data()), dv, stream);
  }
  void expect_correct(const std::string& what) {
    GpuResult r{out};
    collect(r, dd, da.data.guards_intact() && db.data.guards_intact());
    expect_matches_reference(a, b, r, alpha, what);
  }
};

class GpuWorkspace : public ::testing::Test {
 protected:
  void SetUp() override {
    MXGEMM_REQUIRE_GPU();
    // The shapes below are chosen for the Hopper kernels' workspace (the streaming kernel's
    // activation pre-pass); the rules themselves are host code, unit-tested without a GPU.
    if (gemm_backend().name.find("sm90") == std::string::npos)
      GTEST_SKIP() << "not a Hopper GPU: " << gemm_backend().name << gemm_backend().reason;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
  }
  void TearDown() override {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// Before, a growth freed the captured memory: the graph's replays then wrote into whatever
// cudaMalloc gave out next. The probe takes that next allocation and must come out untouched.
TEST_F(GpuWorkspace, AGraphReplaysCorrectlyAfterAnEagerCallOutgrowsItsMemory) {
  std::mt19937 rng = fresh_rng();
  const int device = current_device();
  release_gpu_workspace();
  const std::size_t held_before = gpu_workspace_bytes(device);  // what earlier graphs keep

  DeviceGemm small(40, 520, 1024, rng, 0.5f);  // the streaming kernel, pre-pass in the workspace
  small.poison_output();
  small.call(stream_);  // warm-up: sizes the workspace
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  const std::size_t captured_bytes = gpu_workspace_bytes(device) - held_before;
  ASSERT_GT(captured_bytes, 0u) << "the small GEMM took no workspace: nothing to test";
  small.expect_correct("warm-up 40x520x1024");

  ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
  small.call(stream_);
  ASSERT_EQ(cudaStreamEndCapture(stream_, &graph_), cudaSuccess);
  ASSERT_EQ(cudaGraphInstantiate(&exec_, graph_, 0), cudaSuccess);

  DeviceGemm large(512, 1032, 8192, rng, 1.0f);  // 8 MB of pre-pass alone, 256-row tiles: grows it
  large.poison_output();
  large.call(stream_);
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  large.expect_correct("eager 512x1032x8192");
  // Held now: the large call's memory and, kept, the captured memory.
  const std::size_t grown_bytes = gpu_workspace_bytes(device) - held_before;
  ASSERT_GT(grown_bytes, captured_bytes + 8 * 1024 * 1024) << "the large GEMM did not grow the workspace";

  GuardedDeviceBuffer probe(captured_bytes, 0x5A);
  small.poison_output();
  ASSERT_EQ(cudaGraphLaunch(exec_, stream_), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  small.expect_correct("graph replay after the growth");
  const std::vector<std::uint8_t> after = probe.download();
  std::int64_t changed = 0;
  for (std::uint8_t v : after) changed += v != 0x5A;
  EXPECT_EQ(changed, 0) << "the replay wrote into memory allocated after the growth";

  // Releasing frees the large call's memory but not the graph's; the graph still replays.
  EXPECT_GT(release_gpu_workspace(), 0u);
  EXPECT_EQ(gpu_workspace_bytes(device) - held_before, captured_bytes);
  small.poison_output();
  ASSERT_EQ(cudaGraphLaunch(exec_, stream_), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  small.expect_correct("graph replay after release_gpu_workspace");
}

TEST_F(GpuWorkspace, AGrowthDuringACaptureIsRefusedAndTheCaptureStaysUsable) {
  std::mt19937 rng = fresh_rng();
  DeviceGemm big(300, 1032, 8192, rng, 1.0f);
  big.poison_output();
  big.call(stream_);  // sets up its kernels (attributes, cluster counts) outside any capture
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  big.expect_correct("eager 300x1032x8192");
  release_gpu_workspace();  // so that capturing it again would have to allocate
  DeviceGemm tiny(3, 136, 272, rng, 1.0f);
  tiny.poison_output();
  tiny.call(stream_);  // leaves a small workspace
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);

  big.poison_output();
  ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
  expect_error<UnsupportedError>([&] { big.call(stream_); },
                                 {"is capturing a CUDA graph", "run the same call (or a larger one) once"});
  // No CUDA call was made against the capture: it ends and instantiates as usual.
  ASSERT_EQ(cudaStreamEndCapture(stream_, &graph_), cudaSuccess);
  ASSERT_EQ(cudaGraphInstantiate(&exec_, graph_, 0), cudaSuccess);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);

  // Outside the capture the same call runs.
  big.call(stream_);
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  big.expect_correct("after the refused capture 300x1032x8192");
}

// Without turns (stream_turns.hpp), these calls shared stream-K partial sums and arrival
// counters while their kernels overlapped.
TEST_F(GpuWorkspace, GemmsOnTwoStreamsWithoutAnOrderMatchTheReference) {
  std::mt19937 rng = fresh_rng();
  cudaStream_t other = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), cudaSuccess);
  DeviceGemm first(40, 520, 4096, rng, 1.0f);  // few tiles, long K: split among CTAs
  DeviceGemm second(5, 1032, 8192, rng, -0.5f);
  first.poison_output();
  second.poison_output();
  for (int i = 0; i < 20; ++i) {
    first.call(stream_);
    second.call(other);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  first.expect_correct("40x520x4096 on one stream");
  second.expect_correct("5x1032x8192 on another");
  cudaStreamDestroy(other);
}

TEST_F(GpuWorkspace, GemmsFromTwoHostThreadsMatchTheReference) {
  std::mt19937 rng = fresh_rng();
  cudaStream_t other = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), cudaSuccess);
  DeviceGemm first(40, 520, 4096, rng, 1.0f);
  DeviceGemm second(300, 1032, 2048, rng, 2.0f);
  first.poison_output();
  second.poison_output();
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  std::thread worker([&] {
    cudaSetDevice(device);
    for (int i = 0; i < 20; ++i) second.call(other);
  });
  for (int i = 0; i < 20; ++i) first.call(stream_);
  worker.join();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  first.expect_correct("40x520x4096 from the main thread");
  second.expect_correct("300x1032x2048 from a second thread");
  cudaStreamDestroy(other);
}

}  // namespace
}  // namespace mxgemm::testing
