// Test helpers for the emulator: checks throw instead of exiting, so a test can assert on the message.
#pragma once

#include <gtest/gtest.h>

#include "kernel_operator.h"

namespace tcemu::testing {

[[noreturn]] inline void throwingHandler(const CheckError& e) { throw e; }

// Each test runs on a fresh AIV core (or AIC with EmuTest(CoreKind::AIC)) with throwing checks.
class EmuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    failHandler() = &throwingHandler;
    scope_ = std::make_unique<CoreScope>(kind());
  }
  void TearDown() override {
    scope_.reset();
    failHandler() = nullptr;
  }
  virtual CoreKind kind() const { return CoreKind::AIV; }
  Core& core() { return scope_->core(); }

 private:
  std::unique_ptr<CoreScope> scope_;
};

class CubeTest : public EmuTest {
 protected:
  CoreKind kind() const override { return CoreKind::AIC; }
};

// Runs `fn`, expects a check to fail, and returns its message ("" and a test failure if none did).
template <typename Fn>
std::string checkMessage(Fn&& fn) {
  try {
    fn();
  } catch (const CheckError& e) {
    return e.message;
  }
  ADD_FAILURE() << "expected an emulator check to fail";
  return "";
}

// The line of the statement that follows the macro's own line, for asserting check locations.
#define TCEMU_LINE_OF_NEXT() (__LINE__ + 1)

}  // namespace tcemu::testing
