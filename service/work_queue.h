// A fixed pool of worker threads fed from a bounded queue: what keeps the reward service's load bounded. A job is
// refused up front when the queue is full (the caller answers 429); a job that was accepted always runs, shutdown
// included.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tilecraft::service {

class WorkQueue {
 public:
  // `capacity`: jobs that may wait for a worker (running ones are not counted).
  WorkQueue(int workers, size_t capacity);
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;
  ~WorkQueue();  // shutdown()

  struct Load {
    size_t waiting = 0;  // accepted, not started
    int running = 0;
  };
  // A job returns what to do once its worker is free again (deliver the answer), so that a client that sends its
  // next request the moment it has the answer never finds its own finished job still holding a place.
  using Job = std::function<std::function<void()>()>;
  // false (and `job` dropped, never run) when `capacity` jobs are waiting or the queue is shut down; `atRefusal`
  // then gets the load that made it refuse.
  bool trySubmit(Job job, Load* atRefusal = nullptr);
  // Refuses new jobs, runs every accepted one, joins the workers. Idempotent.
  void shutdown();

  Load load() const;
  int workers() const { return static_cast<int>(threads_.size()); }
  size_t capacity() const { return capacity_; }

 private:
  void work();

  size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  int running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace tilecraft::service
