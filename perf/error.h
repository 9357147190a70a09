// The perf library's user-facing error: a precise message naming the file and the place in it.
#pragma once

#include <stdexcept>
#include <string>

namespace tilecraft::perf {

class PerfError : public std::runtime_error {
 public:
  explicit PerfError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace tilecraft::perf
