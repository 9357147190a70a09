// Kernels take an API's address as a function pointer of CANN's exact type (NPUKernelBench's Foreach kernels:
// `ForeachOneScalarBinary<half, half, Adds, 1>`); the emulator's APIs, which end in a defaulted SrcLoc, have an
// overload of that type too, and a direct call still reports its own line.
#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;

namespace {

template <typename T>
using ScalarOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&);
template <typename T>
using BinaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
template <typename T>
using UnaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
template <typename T>
using BinaryLevel0Op = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, uint64_t, uint8_t,
                            const BinaryRepeatParams&);
template <typename T>
using MathOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t);

template <ScalarOp<float>* op>
void viaScalar(const LocalTensor<float>& d, const LocalTensor<float>& s, float v, int32_t n) {
  op(d, s, v, n);
}

class ApiPointerTest : public EmuTest {};

TEST_F(ApiPointerTest, ApisConvertToCannsFunctionTypes) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 3 * 64 * sizeof(float));
  LocalTensor<float> a = buf.Get<float>(), b = a[64], c = a[128];
  for (int i = 0; i < 64; ++i) a.SetValue(i, 0.5f * static_cast<float>(i)), b.SetValue(i, 2.0f);
  // Scalar accesses run on PIPE_S: a barrier orders each against the vector instruction.
  auto read = [&](uint32_t i) {
    PipeBarrier<PIPE_ALL>();
    float v = c.GetValue(i);
    PipeBarrier<PIPE_ALL>();
    return v;
  };
  PipeBarrier<PIPE_ALL>();
  viaScalar<Adds>(c, a, 1.0f, 64);
  EXPECT_EQ(read(10), 6.0f);
  BinaryOp<float>* div = Div;
  div(c, a, b, 64);
  EXPECT_EQ(read(10), 2.5f);
  UnaryOp<float>* exp = Exp<float>;
  exp(c, b, 64);
  EXPECT_NEAR(read(3), 7.389056f, 1e-5f);
  BinaryLevel0Op<float>* sub = Sub;
  sub(c, a, b, 64, 1, {1, 1, 1, 8, 8, 8});
  EXPECT_EQ(read(10), 3.0f);
  MathOp<float>* cos = Cos<float, false>;
  cos(c, b, 64);
  EXPECT_NEAR(read(0), -0.4161468f, 1e-4f);
  MathOp<float>* tanh = Tanh<float, false>;
  tanh(c, b, 64);
  EXPECT_NEAR(read(0), 0.9640276f, 1e-4f);
  pipe.Destroy();
}

TEST_F(ApiPointerTest, DirectCallsKeepTheirLine) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64 * sizeof(float));
  LocalTensor<float> a = buf.Get<float>();
  int line = TCEMU_LINE_OF_NEXT();
  auto err = [&] { Adds(a, a, 1.0f, 100000); };
  try {
    err();
    ADD_FAILURE() << "no check";
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.loc.line, line);
  }
  pipe.Destroy();
}

}  // namespace
