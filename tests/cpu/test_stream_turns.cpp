// StreamTurns' rules with fake CUDA calls that log what they were asked to do: which call waits
// for which, what a capture skips, and that host threads take turns.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "cuda/common/stream_turns.hpp"
#include "mxgemm/errors.hpp"

namespace mxgemm::cuda {
namespace {

struct FakeOrder {
  int device = 0;
  cudaStream_t capturing_stream = nullptr;
  bool anything_capturing = false;
  bool fail_wait = false;
  std::uintptr_t events = 0;
  std::vector<std::string> log;
};
FakeOrder fake;

std::string name(const void* p) { return std::to_string(reinterpret_cast<std::uintptr_t>(p)); }

StreamOrderCalls fake_calls() {
  StreamOrderCalls calls{};
  calls.current_device = [] { return fake.device; };
  calls.capturing = [](cudaStream_t s) { return fake.anything_capturing && s == fake.capturing_stream; };
  calls.create_event = [] {
    fake.log.push_back("event " + std::to_string(++fake.events) + " on " + std::to_string(fake.device));
    return reinterpret_cast<cudaEvent_t>(fake.events);
  };
  calls.record = [](cudaEvent_t e, cudaStream_t s) { fake.log.push_back("record " + name(e) + " " + name(s)); };
  calls.wait = [](cudaStream_t s, cudaEvent_t e) {
    if (fake.fail_wait) throw CudaError("cudaStreamWaitEvent failed (fake)");
    fake.log.push_back("wait " + name(s) + " " + name(e));
  };
  return calls;
}

cudaStream_t stream(std::uintptr_t id) { return reinterpret_cast<cudaStream_t>(id); }

class StreamTurnsTest : public ::testing::Test {
 protected:
  void SetUp() override { fake = FakeOrder{}; }
  StreamTurns turns{fake_calls()};
  void call_on(cudaStream_t s) { const StreamTurns::Turn turn = turns.take(s); }
};

TEST_F(StreamTurnsTest, CallsOnOneStreamNeverWait) {
  call_on(stream(10));
  call_on(stream(10));
  call_on(stream(10));
  EXPECT_EQ(fake.log, (std::vector<std::string>{"event 1 on 0", "record 1 10", "record 1 10", "record 1 10"}));
}

TEST_F(StreamTurnsTest, ACallOnAnotherStreamWaitsForTheLastCall) {
  call_on(stream(10));
  call_on(stream(20));
  call_on(stream(20));
  call_on(stream(10));
  EXPECT_EQ(fake.log, (std::vector<std::string>{"event 1 on 0", "record 1 10", "wait 20 1", "record 1 20",
                                                "record 1 20", "wait 10 1", "record 1 10"}));
}

TEST_F(StreamTurnsTest, ACapturedCallNeitherWaitsNorRecords) {
  call_on(stream(10));
  fake.anything_capturing = true;
  fake.capturing_stream = stream(30);
  call_on(stream(30));  // the capture: no wait for eager work, no event naming the graph
  fake.anything_capturing = false;
  call_on(stream(10));  // the last uncaptured call was on 10: no wait
  call_on(stream(20));
  EXPECT_EQ(fake.log, (std::vector<std::string>{"event 1 on 0", "record 1 10", "record 1 10", "wait 20 1",
                                                "record 1 20"}));
}

TEST_F(StreamTurnsTest, EachDeviceOrdersItsOwnCalls) {
  call_on(stream(10));
  fake.device = 1;
  call_on(stream(20));  // device 1's first call: its own event, nothing to wait for
  fake.device = 0;
  call_on(stream(20));  // device 0's last call ran on 10
  EXPECT_EQ(fake.log, (std::vector<std::string>{"event 1 on 0", "record 1 10", "event 2 on 1", "record 2 20",
                                                "wait 20 1", "record 1 20"}));
}

TEST_F(StreamTurnsTest, AFailedWaitGivesTheTurnBack) {
  call_on(stream(10));
  fake.fail_wait = true;
  EXPECT_THROW(call_on(stream(20)), CudaError);
  fake.fail_wait = false;
  call_on(stream(10));  // would deadlock if the failed take had kept the turn
  EXPECT_EQ(fake.log.back(), "record 1 10");
}

// A second host thread's call waits, on the host, until the first call's turn ends; so does
// with_all_turns.
TEST_F(StreamTurnsTest, HostThreadsTakeTurns) {
  std::atomic<bool> second_in{false}, all_in{false};
  std::thread second, all;
  {
    const StreamTurns::Turn held = turns.take(stream(10));
    second = std::thread([&] {
      const StreamTurns::Turn turn = turns.take(stream(20));
      second_in = true;
    });
    all = std::thread([&] { turns.with_all_turns([&] { all_in = true; }); });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(second_in.load());
    EXPECT_FALSE(all_in.load());
  }
  second.join();
  all.join();
  EXPECT_TRUE(second_in.load());
  EXPECT_TRUE(all_in.load());
}

}  // namespace
}  // namespace mxgemm::cuda
