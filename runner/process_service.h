// The service's contract over a plain support::ProcessRunner: no sandbox and no verdict channel (the report is
// read from the TILECRAFT_EMU_REPORT file the child is given). For the callers' unit tests, which script their
// children with support::FakeProcessRunner; nothing that judges untrusted code uses it.
#pragma once

#include <string>

#include "runner/service.h"
#include "support/process.h"

namespace tilecraft::runner {

class ProcessRunnerService final : public BuildRunService {
 public:
  // Builds write the program next to the source, named by its stem.
  ProcessRunnerService(support::ProcessRunner& runner, std::string emuInclude, std::string compiler = "g++")
      : runner_(runner), emuInclude_(std::move(emuInclude)), compiler_(std::move(compiler)) {}
  BuildResult build(const BuildRequest& request) override;
  RunResult run(const RunRequest& request) override;

 private:
  support::ProcessRunner& runner_;
  std::string emuInclude_;
  std::string compiler_;
};

}  // namespace tilecraft::runner
