// What the sandbox costs per run: N runs of /bin/true through bubblewrap and through --no-sandbox (the same
// fork, exec, pipes, rlimits and pids cgroup), and the verdict channel opened as for every kernel run. Usage:
// sandbox_bench [N]   (docs/security.md records the figure; target: under 50 ms per run)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "runner/sandbox.h"

namespace {

using tilecraft::runner::SandboxMode;

double msPerRun(SandboxMode mode, int runs) {
  auto sandbox = tilecraft::runner::makeSystemSandbox(mode);
  tilecraft::runner::SandboxSpec spec;
  spec.argv = {"/bin/true"};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.workDir = std::filesystem::temp_directory_path().string();
  spec.reportChannel = true;
  spec.nonce = "0123456789abcdef0123456789abcdef";
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) {
    auto result = sandbox->run(spec);
    if (!result.started || result.exitCode != 0) {
      std::fprintf(stderr, "error: run %d failed: %s\n", i, result.startError.c_str());
      std::exit(1);
    }
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / runs;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 100;
  if (runs < 1) {
    std::fprintf(stderr, "usage: sandbox_bench [RUNS >= 1]\n");
    return 2;
  }
  double plain = msPerRun(SandboxMode::None, runs);
  double sandboxed = msPerRun(SandboxMode::Bubblewrap, runs);
  std::printf(
      "sandbox_bench: %d runs of /bin/true: no sandbox %.2f ms/run, bubblewrap %.2f ms/run, "
      "sandbox cost %.2f ms/run (ratio %.1fx)\n",
      runs, plain, sandboxed, sandboxed - plain, sandboxed / plain);
  return 0;
}
