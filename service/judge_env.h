// The real world behind a HarnessJudge, as `tilecraft mcp` and `tilecraft serve` set it up: the Python golden
// worker, the sandboxed build-and-run service with its program cache, the 910B2 arch spec, and a work folder.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>

#include "harness/bench.h"
#include "harness/golden.h"
#include "perf/arch.h"
#include "runner/service.h"

namespace tilecraft::service {

struct JudgeEnvironmentOptions {
  std::string cacheDir;    // goldens/ and programs/ (as tilecraft bench's --cache)
  std::string workDir;     // solutions and run folders; empty: a temporary folder removed with the environment
  std::string emuInclude;  // the emulator's headers
  bool sandbox = true;
};

class JudgeEnvironment {
 public:
  ~JudgeEnvironment();
  harness::BenchEnv env() const { return {service_.get(), golden_.get(), {}}; }
  const perf::ArchSpec& arch() const { return arch_; }
  const std::filesystem::path& workDir() const { return workDir_; }

 private:
  friend std::unique_ptr<JudgeEnvironment> startJudgeEnvironment(const JudgeEnvironmentOptions&, std::ostream&);
  JudgeEnvironment() = default;
  std::unique_ptr<runner::BuildRunService> service_;
  std::unique_ptr<harness::GoldenRunner> golden_;
  perf::ArchSpec arch_;
  std::filesystem::path workDir_;
  bool temporary_ = false;
};

// nullptr after "error: ..." on `err` when a part cannot start (no Python with torch, no sandbox, a folder that
// cannot be made).
std::unique_ptr<JudgeEnvironment> startJudgeEnvironment(const JudgeEnvironmentOptions& options, std::ostream& err);

}  // namespace tilecraft::service
