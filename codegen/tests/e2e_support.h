// What the end-to-end tests share: their temporary folders, file text, and the one command that builds a
// generated CPU-debug program against the emulator with g++ (as `tilecraft run` builds it, outside the sandbox:
// these sources are our own).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"

namespace tilecraft::codegen {

inline std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::filesystem::path tempDir(const std::string& name) {
  std::string pattern = (std::filesystem::temp_directory_path() / ("tilecraft-codegen-" + name + "-XXXXXX")).string();
  EXPECT_NE(::mkdtemp(pattern.data()), nullptr);
  return pattern;
}

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
