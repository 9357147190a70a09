// The bounded queue: jobs beyond the waiting places are refused up front, every accepted job runs, shutdown
// included.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "service/work_queue.h"

namespace tilecraft::service {
namespace {

// Jobs that block until opened, so the test decides when workers are busy.
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
  int started = 0;
  void wait() {
    std::unique_lock<std::mutex> lock(mutex);
    ++started;
    cv.notify_all();
    cv.wait(lock, [this] { return open; });
  }
  void waitStarted(int n) {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return started >= n; });
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
    cv.notify_all();
  }
};

TEST(WorkQueue, RefusesOnlyWhenEveryWaitingPlaceIsTaken) {
  Gate gate;
  std::atomic<int> ran{0};
  WorkQueue queue(2, 3);
  auto job = [&]() -> std::function<void()> {
    gate.wait();
    ++ran;
    return {};
  };
  EXPECT_TRUE(queue.trySubmit(job));
  EXPECT_TRUE(queue.trySubmit(job));
  gate.waitStarted(2);  // both workers busy
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(queue.trySubmit(job)) << i;
  EXPECT_EQ(queue.load().waiting, 3u);
  EXPECT_EQ(queue.load().running, 2);
  EXPECT_FALSE(queue.trySubmit(job));
  EXPECT_FALSE(queue.trySubmit(job));
  gate.release();
  queue.shutdown();
  EXPECT_EQ(ran, 5);  // the refused jobs never ran, every accepted one did
  EXPECT_FALSE(queue.trySubmit(job));
}

TEST(WorkQueue, ShutdownRunsWhatWasAccepted) {
  std::atomic<int> ran{0};
  {
    WorkQueue queue(1, 10);
    for (int i = 0; i < 8; ++i) {
      ASSERT_TRUE(queue.trySubmit([&]() -> std::function<void()> {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return [&] { ++ran; };  // the continuation runs too
      }));
    }
  }  // the destructor shuts down
  EXPECT_EQ(ran, 8);
}

TEST(WorkQueue, AZeroQueueTakesOnlyWhatIdleWorkersCanStart) {
  Gate gate;
  WorkQueue queue(1, 0);
  EXPECT_TRUE(queue.trySubmit([&]() -> std::function<void()> {
    gate.wait();
    return {};
  }));
  gate.waitStarted(1);
  WorkQueue::Load load;
  EXPECT_FALSE(queue.trySubmit([] { return std::function<void()>(); }, &load));
  EXPECT_EQ(load.waiting, 0u);
  EXPECT_EQ(load.running, 1);
  gate.release();
}

}  // namespace
}  // namespace tilecraft::service
