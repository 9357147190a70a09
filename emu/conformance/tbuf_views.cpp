// tbuf_views: one TBuf<VECCALC> fetched as raw bytes (Get<uint8_t>()) and carved into typed views with
// ReinterpretCast<T>() and operator[]; GetSize()/GetLength() drive the loop bounds, SetSize() narrows a view,
// Get<T>(len) fetches a prefix. The compute is an affine float transform y = |x| * a + b, an int32 view of the
// same bytes for a sign-bit clear (And with 0x7fffffff on int16 halves), and Duplicate of a constant row.
#include "kernel_operator.h"

using namespace AscendC;

class KernelViews {
 public:
  __aicore__ inline KernelViews() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR bits, GM_ADDR fill, uint32_t n, float a, float b) {
    count = n;
    scale = a;
    bias = b;
    xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<int64_t>(GetBlockIdx()) * n, n);
    yGm.SetGlobalBuffer((__gm__ float*)y + static_cast<int64_t>(GetBlockIdx()) * n, n);
    bitsGm.SetGlobalBuffer((__gm__ int16_t*)bits + static_cast<int64_t>(GetBlockIdx()) * 2 * n, 2 * n);
    fillGm.SetGlobalBuffer((__gm__ int32_t*)fill + static_cast<int64_t>(GetBlockIdx()) * 64, 64);
    // Room for x, y and the mask row: 2 * n floats + 128 int16.
    pipe.InitBuffer(calcBuf, 2 * n * sizeof(float) + 128 * sizeof(int16_t));
    pipe.InitBuffer(fillBuf, 64 * sizeof(int32_t));
  }
  __aicore__ inline void Process() {
    LocalTensor<uint8_t> raw = calcBuf.Get<uint8_t>();
    LocalTensor<float> all = raw.ReinterpretCast<float>();
    LocalTensor<float> xLocal = all;
    xLocal.SetSize(count);
    LocalTensor<float> yLocal = all[count];
    yLocal.SetSize(count);
    LocalTensor<int16_t> maskRow = raw[2 * count * sizeof(float)].ReinterpretCast<int16_t>();

    DataCopy(xLocal, xGm, xLocal.GetSize());
    event_t toV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(toV);
    WaitFlag<HardEvent::MTE2_V>(toV);
    Abs(yLocal, xLocal, yLocal.GetSize());
    Muls(yLocal, yLocal, scale, yLocal.GetSize());
    Adds(yLocal, yLocal, bias, yLocal.GetSize());
    // Clear the sign bit of x through an int16 view of its bytes: the high half of each float is the odd int16.
    Duplicate(maskRow, static_cast<int16_t>(-1), 128);
    LocalTensor<int16_t> xBits = xLocal.ReinterpretCast<int16_t>();
    event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(vs);
    WaitFlag<HardEvent::V_S>(vs);
    for (uint32_t i = 0; i < 64; i++) maskRow.SetValue(2 * i + 1, static_cast<int16_t>(0x7fff));
    event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(sv);
    WaitFlag<HardEvent::S_V>(sv);
    const uint32_t halves = xBits.GetSize();
    for (uint32_t off = 0; off < halves; off += 128) And(xBits[off], xBits[off], maskRow, 128);

    LocalTensor<int32_t> fill = fillBuf.Get<int32_t>(64);
    Duplicate(fill, static_cast<int32_t>(GetBlockIdx() * 1000 + 7), static_cast<int32_t>(fill.GetSize()));

    event_t toMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(toMte3);
    WaitFlag<HardEvent::V_MTE3>(toMte3);
    DataCopy(yGm, yLocal, count);
    DataCopy(bitsGm, xBits, xBits.GetSize());
    DataCopy(fillGm, fill, static_cast<uint32_t>(fill.GetLength() / sizeof(int32_t)));
  }

 private:
  TPipe pipe;
  TBuf<TPosition::VECCALC> calcBuf;
  TBuf<QuePosition::VECCALC> fillBuf;
  GlobalTensor<float> xGm, yGm;
  GlobalTensor<int16_t> bitsGm;
  GlobalTensor<int32_t> fillGm;
  uint32_t count = 0;
  float scale = 0.0f, bias = 0.0f;
};

extern "C" __global__ __aicore__ void views_custom(GM_ADDR x, GM_ADDR y, GM_ADDR bits, GM_ADDR fill, uint32_t n,
                                                   float a, float b) {
  KernelViews op;
  op.Init(x, y, bits, fill, n, a, b);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 3, n = 2048;
  constexpr float a = 0.75f, b = -3.5f;
  auto* x = static_cast<float*>(AscendC::GmAlloc(blockDim * n * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(blockDim * n * sizeof(float)));
  auto* bits = static_cast<int16_t*>(AscendC::GmAlloc(blockDim * n * sizeof(float)));
  auto* fill = static_cast<int32_t*>(AscendC::GmAlloc(blockDim * 64 * sizeof(int32_t)));
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
  for (uint32_t i = 0; i < blockDim * n; i++) x[i] = dist(rng);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(views_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(bits), reinterpret_cast<uint8_t*>(fill), n, a, b);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < blockDim * n; i++) {
    const float wantY = std::fabs(x[i]) * a + b;  // two roundings, as Muls then Adds
    const float wantAbs = std::fabs(x[i]);
    float gotAbs;
    std::memcpy(&gotAbs, bits + 2 * i, sizeof(float));
    if (std::memcmp(&wantY, &y[i], 4) != 0 || std::memcmp(&wantAbs, &gotAbs, 4) != 0) ++bad;
  }
  for (uint32_t c = 0; c < blockDim; c++)
    for (uint32_t i = 0; i < 64; i++)
      if (fill[c * 64 + i] != static_cast<int32_t>(c * 1000 + 7)) ++bad;
  std::printf("tbuf_views: %u floats on %u cores, %u wrong -> %s\n", blockDim * n, blockDim, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(bits);
  AscendC::GmFree(fill);
  return bad == 0 ? 0 : 1;
}
#endif
