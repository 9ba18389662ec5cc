// core/per_device.hpp: what the device caches (the device query, the device traits) rest on.
// Each device is read once, devices keep their own values, a value keep() refuses is read again
// next time, and concurrent first calls still read once.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "core/per_device.hpp"

namespace mxgemm::detail {
namespace {

TEST(PerDevice, ReadsEachDeviceOnceAndKeepsTheirValuesApart) {
  PerDevice<int> cache;
  std::vector<int> reads(3, 0);
  const auto read = [&](int device) { return 100 * device + ++reads[device]; };
  for (int pass = 0; pass < 3; ++pass)
    for (int d = 0; d < 3; ++d) EXPECT_EQ(cache.get(d, read), 100 * d + 1) << "device " << d << ", pass " << pass;
  EXPECT_EQ(reads, (std::vector<int>{1, 1, 1}));
}

TEST(PerDevice, AValueKeepRefusesIsReadAgain) {
  PerDevice<int> cache;
  int reads = 0;
  const auto read = [&](int) { return ++reads; };
  const auto keep_from_third = [](int v) { return v >= 3; };
  EXPECT_EQ(cache.get(0, read, keep_from_third), 1);
  EXPECT_EQ(cache.get(0, read, keep_from_third), 2);
  EXPECT_EQ(cache.get(0, read, keep_from_third), 3);
  EXPECT_EQ(cache.get(0, read, keep_from_third), 3);
  EXPECT_EQ(reads, 3);
}

TEST(PerDevice, ConcurrentFirstCallsReadOnce) {
  PerDevice<int> cache;
  std::atomic<int> reads{0};
  const auto read = [&](int) {
    std::this_thread::yield();
    return 7 + reads.fetch_add(1);
  };
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      if (cache.get(5, read) != 7) wrong.fetch_add(1);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(reads.load(), 1);
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace mxgemm::detail
