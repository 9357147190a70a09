// An owned file descriptor and a pipe of two, closed when they go out of scope: for the code that starts child
// processes (support/process.cpp, runner/sandbox.cpp).
#pragma once

#include <unistd.h>

#include <cerrno>

#include <utility>

namespace tilecraft::support {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read;
  Fd write;
};

// Reads one `T` (a child's report of why it could not start, say), retrying on EINTR. false on end of file or a
// short read: the writer closed the pipe without reporting.
template <typename T>
bool readValue(const Fd& fd, T& value) {
  ssize_t n;
  do {
    n = ::read(fd.get(), &value, sizeof value);
  } while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof value);
}

}  // namespace tilecraft::support
