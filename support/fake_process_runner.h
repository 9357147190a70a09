// A ProcessRunner for tests: records every spec and answers with scripted results, no process is started.
#pragma once

#include <deque>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

#include "support/process.h"

namespace tilecraft::support {

class FakeProcessRunner final : public ProcessRunner {
 public:
  using Handler = std::function<ProcessResult(const ProcessSpec&)>;

  // Queued results are returned in call order; with none left, a default ProcessResult with exit code 0.
  void push(ProcessResult result) {
    std::lock_guard lock(mutex_);
    queued_.push_back(std::move(result));
  }
  // When set, decides every result (e.g. by argv, or by writing the files a real child would write).
  // Callers that run in parallel should use this rather than the queue, whose order follows call order.
  void setHandler(Handler handler) {
    std::lock_guard lock(mutex_);
    handler_ = std::move(handler);
  }

  ProcessResult run(const ProcessSpec& spec) override {
    Handler handler;
    {
      std::lock_guard lock(mutex_);
      specs_.push_back(spec);
      if (!handler_) {
        ProcessResult result;
        result.exitCode = 0;
        if (!queued_.empty()) {
          result = std::move(queued_.front());
          queued_.pop_front();
        }
        return result;
      }
      handler = handler_;
    }
    return handler(spec);
  }

  std::vector<ProcessSpec> specs() const {
    std::lock_guard lock(mutex_);
    return specs_;
  }

 private:
  mutable std::mutex mutex_;
  std::deque<ProcessResult> queued_;
  Handler handler_;
  std::vector<ProcessSpec> specs_;
};

}  // namespace tilecraft::support
