// One persistent child process spoken to in JSON lines (the golden worker): started on demand, one request
// at a time, a reply deadline per request, killed with its whole process group on a timeout or when dropped.
// Internal to harness/golden.cpp; behind GoldenRunner for everything else.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace tilecraft::harness {

struct LineReply {
  bool ok = false;   // a line came back
  std::string line;  // the reply, without its newline
  bool timedOut = false;
  std::string failure;  // when !ok: how the child ended ("exit status 3", "killed by signal 9", ...)
};

class LineWorker {
 public:
  // argv[0] is an absolute path; the child's stderr goes to `logFile`.
  LineWorker(std::vector<std::string> argv, std::filesystem::path logFile);
  LineWorker(const LineWorker&) = delete;
  LineWorker& operator=(const LineWorker&) = delete;
  ~LineWorker();

  bool running() const { return pid_ > 0; }
  // Starts the child and waits for its first line (the ready banner).
  LineReply start(double timeoutSeconds);
  // Sends one line and waits for one reply line. On a timeout or EOF the child is killed and reaped.
  LineReply request(const std::string& line, double timeoutSeconds);
  void stop();
  // The last `n` lines the child wrote to stderr.
  std::string stderrTail(int n) const;
  pid_t pid() const { return pid_; }

 private:
  LineReply readLine(double timeoutSeconds);
  std::string reap();

  std::vector<std::string> argv_;
  std::filesystem::path logFile_;
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
};

}  // namespace tilecraft::harness
