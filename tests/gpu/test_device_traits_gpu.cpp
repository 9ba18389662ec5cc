// What host code keeps of each device (cuda/common/current_device.hpp, core/dispatch.cpp): the
// traits and the device query are read once per device, so every device's cached answer must be
// what a fresh read says, and switching devices must switch answers.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "core/device.hpp"
#include "cuda/common/current_device.hpp"
#include "gpu/gpu_test_utils.hpp"

namespace mxgemm::testing {
namespace {

// Restores the calling thread's current device.
class DeviceRestorer {
 public:
  DeviceRestorer() { EXPECT_EQ(cudaGetDevice(&device_), cudaSuccess); }
  ~DeviceRestorer() { EXPECT_EQ(cudaSetDevice(device_), cudaSuccess); }

 private:
  int device_ = 0;
};

TEST(GpuDeviceTraits, CachedAnswersMatchAFreshReadOnEveryDevice) {
  MXGEMM_REQUIRE_GPU();
  const DeviceRestorer restore;
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  // Twice over the devices, so that the second pass reads the cache each first call filled.
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < count; ++d) {
      ASSERT_EQ(cudaSetDevice(d), cudaSuccess);
      const cuda::DeviceTraits cached = cuda::current_device_traits(), fresh = cuda::read_device_traits(d);
      EXPECT_EQ(cached.sms, fresh.sms) << "device " << d;
      EXPECT_EQ(cached.dram_bytes_per_s, fresh.dram_bytes_per_s) << "device " << d;
      EXPECT_GT(cached.sms, 0) << "device " << d;
      EXPECT_GT(cached.dram_bytes_per_s, 1e11) << "device " << d;  // the H100 and H200 give both attributes
      cudaDeviceProp prop{};
      ASSERT_EQ(cudaGetDeviceProperties(&prop, d), cudaSuccess);
      const detail::DeviceQuery q = detail::query_current_device();
      EXPECT_TRUE(q.present) << q.error;
      EXPECT_EQ(q.device, d);
      EXPECT_EQ(q.major, prop.major) << "device " << d;
      EXPECT_EQ(q.minor, prop.minor) << "device " << d;
      EXPECT_EQ(q.name, prop.name) << "device " << d;
      EXPECT_EQ(cuda::current_device_sms(), prop.multiProcessorCount) << "device " << d;
    }
}

}  // namespace
}  // namespace mxgemm::testing
