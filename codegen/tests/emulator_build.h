// The tests' one command for building a generated CPU-debug program against the emulator with g++ (as
// `tilecraft run` builds it, outside the sandbox: these sources are our own).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "support/process.h"

namespace tilecraft::codegen {

inline support::ProcessResult buildAgainstEmulator(const std::filesystem::path& source,
                                                   const std::filesystem::path& program,
                                                   const std::string& optLevel = "-O1",
                                                   const std::vector<std::string>& warnings = {},
                                                   double timeoutSeconds = 600) {
  support::ProcessSpec build;
  build.argv = {"g++", "-std=c++17", optLevel};
  build.argv.insert(build.argv.end(), warnings.begin(), warnings.end());
  build.argv.insert(build.argv.end(), {"-DASCENDC_CPU_DEBUG", "-I", TILECRAFT_EMU_INCLUDE_DIR, source.string(),
                                       "-pthread", "-o", program.string()});
  build.timeoutSeconds = timeoutSeconds;
  support::SystemProcessRunner runner;
  return runner.run(build);
}

}  // namespace tilecraft::codegen
