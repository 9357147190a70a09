// The enums and constants of the AscendC API (CANN 8.x classic names), and the emulator's own memory and pipe ids.
#pragma once

#include <cstdint>

// AscendC's enum tables, packed several values per line as CANN lists them.
// clang-format off

typedef enum { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4 = 7, PIPE_MTE5 = 8,
               PIPE_V2 = 9, PIPE_FIX = 10 } pipe_t;

typedef enum { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 } event_t;

typedef enum { NoQuant = 0, F322F16 = 1, AttachF16Mul = 6, VREQ8 = 8, REQ8 = 9, VDEQF16 = 10, DEQF16 = 11,
               VSHIFTS322S16 = 12, SHIFTS322S16 = 13, F322BF16 = 16, VQF162B8_PRE = 17, QF162B8_PRE = 18,
               VQF162S4_PRE = 19, QF162S4_PRE = 20, VREQ4 = 21, REQ4 = 22, VQF322B8_PRE = 23, QF322B8_PRE = 24,
               VQF322S4_PRE = 25, QF322S4_PRE = 26, VDEQS16 = 27, DEQS16 = 28, VQF162S16_PRE = 29,
               QF162S16_PRE = 30 } QuantMode_t;

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };

namespace AscendC {

enum class TPosition : uint8_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                 SHM = SPM, TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX };
using QuePosition = TPosition;

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

enum class HardEvent : uint8_t { MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
                                 MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2,
                                 MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S,
                                 M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX };

enum class TBufState : uint8_t { FREE, OCCUPIED, ENQUE, DEQUE };

enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BlockMode : uint8_t { BLOCK_MODE_NORMAL = 0, BLOCK_MODE_MATRIX, BLOCK_MODE_VECTOR, BLOCK_MODE_SMALL_CHANNEL,
                                 BLOCK_MODE_DEPTHWISE };
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };  // CANN 8.1 values
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

using TEventID = int8_t;
using TTagType = int32_t;

constexpr int AIC = 1;
constexpr int AIV = 2;
constexpr int MIX = 0;

constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t MAX_REPEAT_TIMES = 255;
// Element counts per block and repeat, with CANN's names and types (kernel_utils_constants.h): kernels use them.
constexpr uint8_t B32_BYTE_SIZE = 4;
constexpr uint8_t B16_BYTE_SIZE = 2;
constexpr uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / B16_BYTE_SIZE;
constexpr uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / B32_BYTE_SIZE;
constexpr uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
// TransDataTo5HD's address lists and the VA registers that hold them (emu/vec_transdata.h); Brcb's elements
// per repeat.
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
constexpr int32_t VA_REG_ARRAY_LEN = 8;
constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t CUBE_MAX_SIZE = 256;
constexpr int32_t BYTE_PER_FRACTAL = 512;
constexpr int32_t QBUF_MAX_LEN = 64;
constexpr int32_t QUE_MAX_EVENT = 8;
constexpr uint64_t FULL_MASK = 0xffffffffffffffffULL;
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;
constexpr size_t RESERVED_WORKSPACE = 16 * 1024 * 1024;

}  // namespace AscendC

namespace tcemu {

// Physical memories of one core. Every LocalTensor lives in one of them.
enum class Mem : uint8_t { UB, L1, L0A, L0B, L0C, BT, FB, Count };
constexpr int kMemCount = static_cast<int>(Mem::Count);

inline const char* memName(Mem m) {
  static const char* const names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};
  return names[static_cast<int>(m)];
}
inline uint32_t memSize(Mem m) {
  static const uint32_t sizes[] = {AscendC::TOTAL_UB_SIZE, AscendC::TOTAL_L1_SIZE, AscendC::TOTAL_L0A_SIZE,
                                   AscendC::TOTAL_L0B_SIZE, AscendC::TOTAL_L0C_SIZE, 1024, 7 * 1024};
  return sizes[static_cast<int>(m)];
}
// Start-address alignment each memory needs (ascendc_api.md §2.4).
inline uint32_t memAlign(Mem m) {
  static const uint32_t aligns[] = {32, 32, 512, 512, 64, 64, 64};
  return aligns[static_cast<int>(m)];
}

// The pipes a core's instructions run on. Order matches what the trace and the perf model print.
enum class Pipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX, Count };
constexpr int kPipeCount = static_cast<int>(Pipe::Count);

inline const char* pipeName(Pipe p) {
  static const char* const names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
  return names[static_cast<int>(p)];
}

inline Pipe pipeOf(pipe_t p) {
  switch (p) {
    case PIPE_S: return Pipe::S;
    case PIPE_V: return Pipe::V;
    case PIPE_M: return Pipe::M;
    case PIPE_MTE1: return Pipe::MTE1;
    case PIPE_MTE2: return Pipe::MTE2;
    case PIPE_MTE3: return Pipe::MTE3;
    case PIPE_FIX: return Pipe::FIX;
    default: return Pipe::Count;
  }
}

// Source and destination pipe of each HardEvent, in the enum's order.
struct EventPipes {
  Pipe src, dst;
  const char* name;
};
inline EventPipes eventPipes(AscendC::HardEvent e) {
  using P = Pipe;
  static const EventPipes table[] = {
      {P::MTE2, P::MTE1, "MTE2_MTE1"}, {P::MTE1, P::MTE2, "MTE1_MTE2"}, {P::MTE1, P::M, "MTE1_M"},
      {P::M, P::MTE1, "M_MTE1"},       {P::MTE2, P::V, "MTE2_V"},       {P::V, P::MTE2, "V_MTE2"},
      {P::MTE3, P::V, "MTE3_V"},       {P::V, P::MTE3, "V_MTE3"},       {P::M, P::V, "M_V"},
      {P::V, P::M, "V_M"},             {P::V, P::V, "V_V"},             {P::MTE3, P::MTE1, "MTE3_MTE1"},
      {P::MTE1, P::MTE3, "MTE1_MTE3"}, {P::MTE1, P::V, "MTE1_V"},       {P::MTE2, P::M, "MTE2_M"},
      {P::M, P::MTE2, "M_MTE2"},       {P::V, P::MTE1, "V_MTE1"},       {P::M, P::FIX, "M_FIX"},
      {P::FIX, P::M, "FIX_M"},         {P::MTE3, P::MTE2, "MTE3_MTE2"}, {P::MTE2, P::MTE3, "MTE2_MTE3"},
      {P::S, P::V, "S_V"},             {P::V, P::S, "V_S"},             {P::S, P::MTE2, "S_MTE2"},
      {P::MTE2, P::S, "MTE2_S"},       {P::S, P::MTE3, "S_MTE3"},       {P::MTE3, P::S, "MTE3_S"},
      {P::MTE2, P::FIX, "MTE2_FIX"},   {P::FIX, P::MTE2, "FIX_MTE2"},   {P::FIX, P::S, "FIX_S"},
      {P::M, P::S, "M_S"},             {P::FIX, P::MTE3, "FIX_MTE3"},   {P::MTE1, P::FIX, "MTE1_FIX"},
      {P::FIX, P::MTE1, "FIX_MTE1"},   {P::FIX, P::FIX, "FIX_FIX"},
  };
  return table[static_cast<int>(e)];
}

enum class CoreKind : uint8_t { AIC, AIV };

// Which physical memory a TPosition maps to on 910B (ascendc_api.md §4.1). GM and CO2 are not local memories.
inline bool positionMem(AscendC::TPosition p, Mem& out) {
  using T = AscendC::TPosition;
  switch (p) {
    case T::VECIN: case T::VECOUT: case T::VECCALC: out = Mem::UB; return true;
    case T::A1: case T::B1: case T::C1: case T::TSCM: out = Mem::L1; return true;
    case T::A2: out = Mem::L0A; return true;
    case T::B2: out = Mem::L0B; return true;
    case T::CO1: out = Mem::L0C; return true;
    case T::C2: out = Mem::BT; return true;
    case T::C2PIPE2GM: out = Mem::FB; return true;
    default: return false;
  }
}

inline const char* positionName(AscendC::TPosition p) {
  static const char* const names[] = {"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT",
                                      "VECCALC", "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL", "MAX"};
  return names[static_cast<int>(p)];
}

}  // namespace tcemu
// clang-format on
