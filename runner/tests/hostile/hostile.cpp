// Hostile programs for the sandbox suite (runner/tests/hostile_test.cpp), one per first argument, in one file
// so the suite builds once. Each does what an untrusted kernel might try; the suite checks it is contained
// and classified. Built as a trusted program (it has a main and names tcemu): the source check has its own
// tests.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void hostile_kernel(GM_ADDR mode) {
  if (AscendC::GetBlockIdx() != 0) return;
  int what = *mode;
  if (what == 1) ::_exit(0);  // leave in the middle of a launch
  if (what == 2) tcemu::fail(tcemu::SrcLoc::current(), "the hostile kernel's own failure");
}

namespace {

void noLeaveHandler(const tcemu::CheckError&) { ::_exit(0); }

int launch(uint8_t mode) {
  uint8_t* gm = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  *gm = mode;
  ICPU_RUN_KF(hostile_kernel, 2, gm);
  AscendC::GmFree(gm);
  return 0;
}

// Writes a fake record to every descriptor that might be the verdict channel, and a fake report file.
int forge() {
  std::string fake = "{\"end\":true,\"launches\":1}\n";
  for (int fd = 3; fd < 256; ++fd) [[maybe_unused]] auto n = ::write(fd, fake.data(), fake.size());
  if (std::FILE* f = std::fopen("report.jsonl", "w")) {
    std::fputs("{\"kernel\":\"k\",\"blocks\":1,\"instructions\":1,\"checks\":\"passed\"}\n", f);
    std::fclose(f);
  }
  std::printf("PASS hostile: 1 launch, all checks passed\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string what = argc > 1 ? argv[1] : "";
  std::string arg = argc > 2 ? argv[2] : "";
  if (what == "pass") return launch(0);
  if (what == "exit-in-launch") return launch(1);
  if (what == "check") return launch(2);
  if (what == "fail-handler") {
    tcemu::failHandler() = noLeaveHandler;  // a failed check would now end the program with status 0
    return launch(2);
  }
  if (what == "forge") return forge();
  if (what == "loop") {
    for (volatile unsigned long i = 0;; i = i + 1) {
    }
  }
  if (what == "alloc") {  // 20 GiB, touched
    size_t size = 20ull << 30;
    char* p = new char[size];
    for (size_t i = 0; i < size; i += 4096) p[i] = 1;
    return p[12345];
  }
  if (what == "fork-storm") {
    for (;;) {
      if (::fork() < 0) ::usleep(1000);
    }
  }
  if (what == "daemon") {  // a grandchild in its own session, meant to outlive the run
    if (::fork() == 0) {
      ::setsid();
      if (::fork() == 0) {
        for (;;) ::pause();
      }
      ::_exit(0);
    }
    ::usleep(100000);
    return 0;
  }
  if (what == "write") {  // arg: a host path outside the work folder
    std::FILE* f = std::fopen(arg.c_str(), "w");
    if (f == nullptr) {
      std::fprintf(stderr, "cannot write %s: %s\n", arg.c_str(), std::strerror(errno));
      return 1;
    }
    std::fputs("escaped\n", f);
    return std::fclose(f) == 0 ? 0 : 1;
  }
  if (what == "read") {  // arg: a host file the program should not see
    std::FILE* f = std::fopen(arg.c_str(), "r");
    if (f == nullptr) {
      std::fprintf(stderr, "cannot read %s: %s\n", arg.c_str(), std::strerror(errno));
      return 1;
    }
    return 0;
  }
  if (what == "socket") {  // arg: a port on 127.0.0.1 the test listens on
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(std::atoi(arg.c_str())));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s < 0 || ::connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      std::fprintf(stderr, "cannot connect: %s\n", std::strerror(errno));
      return 1;
    }
    return 0;
  }
  if (what == "flood") {  // 64 MiB on stdout
    std::vector<char> block(1 << 20, 'x');
    for (int i = 0; i < 64; ++i) std::fwrite(block.data(), 1, block.size(), stdout);
    std::fputs("the end\n", stdout);
    return 0;
  }
  if (what == "big-file") {  // 4 MiB into the work folder
    std::FILE* f = std::fopen("big.bin", "w");
    std::vector<char> block(1 << 20, 'x');
    for (int i = 0; i < 4 && f; ++i) std::fwrite(block.data(), 1, block.size(), f);
    return f && std::fclose(f) == 0 ? 0 : 1;
  }
  if (what == "descriptors") {  // prints the descriptors it holds, then writes to every one above stderr
    std::string open;
    for (int fd = 0; fd < 1024; ++fd) {
      if (::fcntl(fd, F_GETFD) >= 0) open += (open.empty() ? "" : " ") + std::to_string(fd);
    }
    std::printf("%s\n", open.c_str());
    std::fflush(stdout);
    for (int fd = 3; fd < 1024; ++fd) [[maybe_unused]] auto n = ::write(fd, "leak\n", 5);
    return 0;
  }
  if (what == "kill-parent") {
    ::kill(::getppid(), SIGKILL);
    ::usleep(100000);
    return 0;
  }
  if (what == "segv") {
    ::raise(SIGSEGV);
    return 0;
  }
  if (what == "usage") {
    std::fprintf(stderr, "error: unknown argument 'x'\n");
    return 2;
  }
  if (what == "copy") {  // arg: an input file; writes it to out.bin in the work folder, prints its environment
    std::FILE* in = std::fopen(arg.c_str(), "rb");
    if (in == nullptr) return 1;
    std::FILE* out = std::fopen("out.bin", "wb");
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, in)) > 0;) std::fwrite(buffer, 1, n, out);
    std::fclose(in);
    std::fclose(out);
    extern char** environ;
    for (char** e = environ; *e; ++e) std::printf("%s\n", *e);
    return launch(0);
  }
  std::fprintf(stderr, "usage: hostile CASE [ARG]\n");
  return 2;
}
