// Test helpers for the emulator: checks throw instead of exiting, so a test can assert on the message.
#pragma once

#include <gtest/gtest.h>

#include <list>
#include <vector>

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

// A GM allocation of n elements and its GlobalTensor, freed at the end of the scope.
template <typename T>
struct Gm {
  explicit Gm(size_t n) : p_(static_cast<T*>(AscendC::GmAlloc(n * sizeof(T)))) { t_.SetGlobalBuffer(p_, n); }
  ~Gm() { AscendC::GmFree(p_); }
  T& operator[](size_t i) { return p_[i]; }
  AscendC::GlobalTensor<T> t_;
  T* p_;
};

// An AIV test that takes UB buffers (one TBuf each) as it needs them: buffer<T>(bytes) is a fresh TBuf; filled<T>(values, bytes)
// is one the scalar unit wrote, synced to the vector pipe (S_V) so vector instructions may read it.
class TBufTest : public EmuTest {
 protected:
  template <typename T>
  AscendC::LocalTensor<T> buffer(uint32_t bytes) {
    bufs_.emplace_back();
    pipe_.InitBuffer(bufs_.back(), bytes);
    return bufs_.back().template Get<T>();
  }
  template <typename T>
  AscendC::LocalTensor<T> filled(const std::vector<float>& v, uint32_t bytes) {
    AscendC::LocalTensor<T> t = buffer<T>(bytes);
    for (size_t i = 0; i < v.size(); ++i) t.SetValue(static_cast<uint32_t>(i), static_cast<T>(v[i]));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(0);
    return t;
  }
  AscendC::TPipe pipe_;
  std::list<AscendC::TBuf<AscendC::TPosition::VECCALC>> bufs_;
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
