#include "service/work_queue.h"

#include <algorithm>

namespace tilecraft::service {

WorkQueue::WorkQueue(int workers, size_t capacity) : capacity_(capacity) {
  for (int i = 0; i < std::max(1, workers); ++i) threads_.emplace_back([this] { work(); });
}

WorkQueue::~WorkQueue() { shutdown(); }

bool WorkQueue::trySubmit(Job job, Load* atRefusal) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Jobs an idle worker is about to take are not waiting.
    size_t idle = threads_.size() - static_cast<size_t>(running_);
    if (stopping_ || jobs_.size() >= capacity_ + idle) {
      if (atRefusal) *atRefusal = {jobs_.size() > idle ? jobs_.size() - idle : 0, running_};
      return false;
    }
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
  return true;
}

void WorkQueue::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

WorkQueue::Load WorkQueue::load() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t idle = threads_.size() - static_cast<size_t>(running_);
  return {jobs_.size() > idle ? jobs_.size() - idle : 0, running_};
}

void WorkQueue::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, and nothing accepted is left
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    ++running_;
    lock.unlock();
    std::function<void()> then = job();
    lock.lock();
    --running_;
    if (!then) continue;
    lock.unlock();
    then();
    lock.lock();
  }
}

}  // namespace tilecraft::service
