// GrowingBuffers' rules, with fake CUDA calls that record what they were asked to do: when an
// outgrown buffer is freed, when it is kept for a CUDA graph, and when a call is refused
// because its stream is capturing.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/expect_error.hpp"
#include "cuda/common/growing_buffers.hpp"
#include "mxgemm/errors.hpp"
#include "mxgemm/workspace.hpp"

namespace mxgemm::cuda {
namespace {

// The fake device: which device is current, which stream captures, and a log of the calls.
struct FakeDevice {
  int device = 0;
  cudaStream_t capturing_stream = nullptr;
  bool anything_capturing = false;
  std::uintptr_t next_address = 0x1000;
  std::vector<std::string> log;
};
FakeDevice fake;

DeviceMemoryCalls fake_calls() {
  DeviceMemoryCalls calls{};
  calls.current_device = [] { return fake.device; };
  calls.set_device = [](int device) {
    fake.device = device;
    fake.log.push_back("device " + std::to_string(device));
  };
  calls.capturing = [](cudaStream_t s) { return fake.anything_capturing && s == fake.capturing_stream; };
  calls.synchronize = [] { fake.log.push_back("sync " + std::to_string(fake.device)); };
  calls.allocate = [](std::size_t bytes) {
    void* p = reinterpret_cast<void*>(fake.next_address);
    fake.next_address += 0x100000;
    fake.log.push_back("alloc " + std::to_string(bytes));
    return p;
  };
  calls.release = [](void* p) {
    fake.log.push_back("free " + std::to_string(reinterpret_cast<std::uintptr_t>(p)));
  };
  return calls;
}

std::string freed(void* p) { return "free " + std::to_string(reinterpret_cast<std::uintptr_t>(p)); }

class GrowingBuffersTest : public ::testing::Test {
 protected:
  void SetUp() override { fake = FakeDevice{}; }
  GrowingBuffers buffers{fake_calls(), "workspace"};
  cudaStream_t stream_a = reinterpret_cast<cudaStream_t>(0xa0);
  cudaStream_t stream_b = reinterpret_cast<cudaStream_t>(0xb0);
};

TEST_F(GrowingBuffersTest, ABufferIsReusedUntilOutgrownThenFreedAfterTheDeviceIsIdle) {
  const auto first = buffers.get(1000, stream_a);
  EXPECT_TRUE(first.grown);
  const auto smaller = buffers.get(600, stream_b);
  EXPECT_FALSE(smaller.grown);
  EXPECT_EQ(smaller.ptr, first.ptr);
  const auto larger = buffers.get(5000, stream_a);
  EXPECT_TRUE(larger.grown);
  EXPECT_NE(larger.ptr, first.ptr);
  // The old buffer is freed only after the device synchronized: queued work may use it.
  EXPECT_EQ(fake.log, (std::vector<std::string>{"alloc 1000", "sync 0", freed(first.ptr), "alloc 5000"}));
  EXPECT_EQ(buffers.bytes(0), 5000u);
}

TEST_F(GrowingBuffersTest, EachDeviceHasItsOwnBuffer) {
  const auto on0 = buffers.get(1000, stream_a);
  fake.device = 1;
  const auto on1 = buffers.get(500, stream_a);
  EXPECT_TRUE(on1.grown);
  EXPECT_NE(on1.ptr, on0.ptr);
  fake.device = 0;
  EXPECT_EQ(buffers.get(1000, stream_a).ptr, on0.ptr);
  EXPECT_EQ(fake.log, (std::vector<std::string>{"alloc 1000", "alloc 500"}));
}

TEST_F(GrowingBuffersTest, ABufferACaptureUsedOutlivesItsGrowth) {
  const auto before = buffers.get(4096, stream_a);
  fake.anything_capturing = true;
  fake.capturing_stream = stream_b;
  const auto in_capture = buffers.get(4096, stream_b);  // fits: the graph keeps this address
  EXPECT_FALSE(in_capture.grown);
  EXPECT_EQ(in_capture.ptr, before.ptr);
  fake.anything_capturing = false;

  const auto after = buffers.get(8192, stream_a);  // an eager call outgrows it
  EXPECT_TRUE(after.grown);
  EXPECT_NE(after.ptr, before.ptr);
  // Neither freed nor waited for: the graph may be replayed at any time.
  EXPECT_EQ(fake.log, (std::vector<std::string>{"alloc 4096", "alloc 8192"}));
  EXPECT_EQ(buffers.bytes(0), 4096u + 8192u);

  // The new buffer was not captured: outgrowing it frees it as usual.
  const auto later = buffers.get(16384, stream_a);
  EXPECT_EQ(fake.log.back(), "alloc 16384");
  EXPECT_EQ(fake.log[fake.log.size() - 2], freed(after.ptr));
  EXPECT_NE(later.ptr, after.ptr);
  EXPECT_EQ(buffers.bytes(0), 4096u + 16384u);
}

// Each new shape's warm-up outgrows the buffer the previous capture used: doubling keeps what
// the captures hold (1000 + 2000 + 4000 retired) under the current buffer's size (8000).
TEST_F(GrowingBuffersTest, BuffersThatCapturesKeepGrowAtLeastTwofold) {
  for (std::size_t need : {1000, 1500, 2500, 4500}) {  // each more than the last buffer
    fake.anything_capturing = false;
    buffers.get(need, stream_a);  // warm-up
    fake.anything_capturing = true;
    fake.capturing_stream = stream_b;
    EXPECT_FALSE(buffers.get(need, stream_b).grown);  // the capture
  }
  fake.anything_capturing = false;
  EXPECT_EQ(fake.log, (std::vector<std::string>{"alloc 1000", "alloc 2000", "alloc 4000", "alloc 8000"}));
  EXPECT_EQ(buffers.bytes(0), 15000u);
  // An uncaptured buffer grows to what is asked.
  buffers.get(16001, stream_a);
  EXPECT_EQ(fake.log.back(), "alloc 16001");
  buffers.get(16002, stream_a);
  EXPECT_EQ(fake.log.back(), "alloc 16002");
}

TEST_F(GrowingBuffersTest, ACallOnAnotherStreamDuringACaptureDoesNotPinTheBuffer) {
  const auto first = buffers.get(1000, stream_a);
  fake.anything_capturing = true;
  fake.capturing_stream = stream_b;
  buffers.get(1000, stream_a);  // stream_a is not the one capturing
  fake.anything_capturing = false;
  buffers.get(2000, stream_a);
  EXPECT_EQ(fake.log, (std::vector<std::string>{"alloc 1000", "sync 0", freed(first.ptr), "alloc 2000"}));
  EXPECT_EQ(buffers.bytes(0), 2000u);
}

TEST_F(GrowingBuffersTest, GrowingWhileCapturingIsRefusedBeforeAnyCudaCall) {
  buffers.get(1000, stream_a);
  fake.anything_capturing = true;
  fake.capturing_stream = stream_b;
  testing::expect_error<UnsupportedError>(
      [&] { buffers.get(3000, stream_b); },
      {"mxgemm workspace: stream 0xb0 is capturing a CUDA graph", "needs 3000 bytes on device 0",
       "more than the 1000 allocated", "run the same call (or a larger one) once before capturing"});
  // The first allocation of a device is refused the same way.
  fake.device = 2;
  testing::expect_error<UnsupportedError>([&] { buffers.get(64, stream_b); },
                                          {"needs 64 bytes on device 2", "more than the 0 allocated"});
  EXPECT_EQ(fake.log, (std::vector<std::string>{"alloc 1000"}));  // no sync, free or alloc since
  // The capture ends; the refused call is then served.
  fake.anything_capturing = false;
  fake.device = 0;
  EXPECT_TRUE(buffers.get(3000, stream_b).grown);
}

TEST_F(GrowingBuffersTest, ReleaseFreesEachDevicesUnusedBufferAfterItsDeviceAndKeepsCapturedOnes) {
  EXPECT_EQ(buffers.release_unused(), 0u);  // nothing allocated: no CUDA call at all
  EXPECT_TRUE(fake.log.empty());

  const auto on0 = buffers.get(1000, stream_a);
  fake.device = 1;
  buffers.get(3000, stream_a);
  fake.anything_capturing = true;
  fake.capturing_stream = stream_a;
  buffers.get(3000, stream_a);  // device 1's buffer is now held by a graph
  fake.anything_capturing = false;
  fake.device = 3;
  const auto on3 = buffers.get(500, stream_b);
  EXPECT_EQ(buffers.bytes(0), 1000u);
  EXPECT_EQ(buffers.bytes(1), 3000u);
  EXPECT_EQ(buffers.bytes(2), 0u);
  fake.log.clear();

  EXPECT_EQ(buffers.release_unused(), 1500u);
  // Devices 0 and 3 (in either order), each synchronized before its free; the current
  // device restored; device 1 untouched.
  const std::vector<std::string> order03{"device 0", "sync 0", freed(on0.ptr), "device 3", "sync 3", freed(on3.ptr), "device 3"};
  const std::vector<std::string> order30{"device 3", "sync 3", freed(on3.ptr), "device 0", "sync 0", freed(on0.ptr), "device 3"};
  EXPECT_TRUE(fake.log == order03 || fake.log == order30);
  EXPECT_EQ(fake.device, 3);
  EXPECT_EQ(buffers.bytes(0) + buffers.bytes(3), 0u);
  EXPECT_EQ(buffers.bytes(1), 3000u);

  // Released devices allocate again; the captured buffer is still served.
  fake.device = 0;
  EXPECT_TRUE(buffers.get(1000, stream_a).grown);
  fake.device = 1;
  EXPECT_FALSE(buffers.get(2000, stream_a).grown);
}

TEST_F(GrowingBuffersTest, RetiredBuffersStillCountOnTheirDevice) {
  fake.anything_capturing = false;
  buffers.get(1000, stream_a);
  fake.anything_capturing = true;
  fake.capturing_stream = stream_a;
  buffers.get(1000, stream_a);
  fake.anything_capturing = false;
  buffers.get(4000, stream_a);  // retires the captured 1000
  EXPECT_EQ(buffers.bytes(0), 5000u);
  EXPECT_EQ(buffers.release_unused(), 4000u);
  EXPECT_EQ(buffers.bytes(0), 1000u);  // the graph's buffer stays
}

// The public functions over the library's own buffers: with no GPU call made in this process,
// they hold nothing and make no CUDA call (this suite runs where there is no GPU).
TEST(GpuWorkspace, NothingIsHeldBeforeAGpuCall) {
  EXPECT_EQ(gpu_workspace_bytes(0), 0u);
  EXPECT_EQ(release_gpu_workspace(), 0u);
  testing::expect_error<ArgumentError>([] { gpu_workspace_bytes(-1); },
                                       {"gpu_workspace_bytes: device: expected a CUDA device ordinal >= 0, got -1"});
}

}  // namespace
}  // namespace mxgemm::cuda
