// Test fixture of the elementwise vector tests: a UB buffer to carve tensors from, and scalar fill/read
// helpers.
#pragma once

#include <memory>
#include <vector>

#include "emu_test_util.h"

namespace tcemu::testing {

using namespace AscendC;

// Each test gets a 16 KiB UB buffer; tensors are carved out of it at 32-byte aligned element offsets.
class VecTest : public EmuTest {
 protected:
  void SetUp() override {
    EmuTest::SetUp();
    pipe_ = std::make_unique<TPipe>();
    pipe_->InitBuffer(buf_, 16384);
  }
  void TearDown() override {
    pipe_.reset();
    EmuTest::TearDown();
  }
  template <typename T>
  LocalTensor<T> at(uint32_t byteOffset, uint32_t count) {
    return buf_.GetWithOffset<T>(count, byteOffset);
  }
  // Scalar accesses run on PIPE_S; barriers order them against the vector instructions under test.
  template <typename T>
  void fill(const LocalTensor<T>& t, const std::vector<T>& values) {
    for (size_t i = 0; i < values.size(); ++i) t.SetValue(static_cast<uint32_t>(i), values[i]);
    PipeBarrier<PIPE_ALL>();
  }
  template <typename T>
  void fillAll(const LocalTensor<T>& t, T v) {
    fill(t, std::vector<T>(t.GetSize(), v));
  }
  template <typename T>
  std::vector<T> get(const LocalTensor<T>& t, uint32_t n) {
    PipeBarrier<PIPE_ALL>();
    std::vector<T> out;
    for (uint32_t i = 0; i < n; ++i) out.push_back(t.GetValue(i));
    PipeBarrier<PIPE_ALL>();  // and the next vector instruction after the reads
    return out;
  }
  template <typename T>
  std::vector<float> getF(const LocalTensor<T>& t, uint32_t n) {
    std::vector<float> out;
    for (T v : get(t, n)) out.push_back(tcemu::toFloat(v));
    return out;
  }
  const tcemu::Instr& last() { return core().trace().back(); }

  std::unique_ptr<TPipe> pipe_;
  TBuf<TPosition::VECCALC> buf_;
};

inline std::vector<float> iota(size_t n, float start = 0.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + static_cast<float>(i);
  return v;
}
inline std::vector<half> halves(const std::vector<float>& v) {
  std::vector<half> out;
  for (float f : v) out.push_back(half(f));
  return out;
}

}  // namespace tcemu::testing
