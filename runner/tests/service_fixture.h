// A gtest fixture for tests that judge real kernels: the sandboxed build-and-run service, started once per test
// suite (its start-up is the slow part), and a scratch folder per test, removed after it. The test target defines
// TILECRAFT_EMU_INCLUDE_DIR, the emulator's headers the service compiles kernels against.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "runner/service.h"

namespace tilecraft::runner::testing {

class ServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ServiceOptions options;
    options.emuInclude = TILECRAFT_EMU_INCLUDE_DIR;
    std::ostringstream err;
    service_ = startBuildRunService(options, err).release();
    ASSERT_NE(service_, nullptr) << err.str();
  }
  static void TearDownTestSuite() {
    delete service_;
    service_ = nullptr;
  }
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "tilecraft-service-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    tmp_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(tmp_); }

  static inline BuildRunService* service_ = nullptr;
  std::filesystem::path tmp_;
};

}  // namespace tilecraft::runner::testing
