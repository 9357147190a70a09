// Helpers for the cast/compare, reduction and gather tests: UB tensors carved from one TBuf, scalar fill and
// read-back with the S<->V flags a kernel needs around them.
#pragma once

#include <memory>
#include <vector>

#include "emu_test_util.h"

namespace tcemu::testing {

class UbTest : public EmuTest {
 protected:
  void SetUp() override {
    EmuTest::SetUp();
    pipe_ = std::make_unique<AscendC::TPipe>();
    pipe_->InitBuffer(buf_, 96 * 1024);
  }
  void TearDown() override {
    pipe_.reset();
    EmuTest::TearDown();
  }

  // n elements, 32-byte aligned, after the previous tensor.
  template <typename T>
  AscendC::LocalTensor<T> ub(uint32_t n) {
    AscendC::LocalTensor<T> t = buf_.GetWithOffset<T>(n, next_);
    next_ += static_cast<uint32_t>(roundUp(uint64_t{n} * sizeof(T), 32));
    return t;
  }
  // Scalar writes, then the S -> V flag so vector instructions may read them.
  template <typename T, typename V>
  void put(const AscendC::LocalTensor<T>& t, const std::vector<V>& v) {
    for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, static_cast<T>(v[i]));
    sToV();
  }
  template <typename T>
  void fill(const AscendC::LocalTensor<T>& t, uint32_t n, T value) {
    for (uint32_t i = 0; i < n; ++i) t.SetValue(i, value);
    sToV();
  }
  void sToV() {
    AscendC::SetFlag<AscendC::HardEvent::S_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(0);
  }
  void vToS() {
    AscendC::SetFlag<AscendC::HardEvent::V_S>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(0);
  }
  static uint16_t bits(half h) { return h.val; }
  static uint16_t bits(bfloat16_t b) { return b.val; }
  static float f(half h) { return toFloat(h); }

  std::unique_ptr<AscendC::TPipe> pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
  uint32_t next_ = 0;
};

}  // namespace tcemu::testing
