// Kernel-side tiling structs of the high-level APIs (CANN's kernel_tiling/kernel_tiling.h): plain PODs with the real
// field names and order, so a tiling blob written by host code (tiling/tiling_api.h) is read back field for field.
// Only the structs of the APIs this emulator implements are here.
#pragma once

#include <cstdint>
#include <cstring>

#pragma pack(push, 8)
// SoftMax and LogSoftMax share one tiling layout (the same fields in CANN): the list, once, for the kernel structs
// here and the host structs of tiling/hl_tiling.h.
// X-macro lists and packed enumerators are laid out by hand, several per line.
// clang-format off
#define TCEMU_SOFTMAX_TILING_FIELDS(F)                                                                         \
  F(uint32_t, srcM) F(uint32_t, srcK) F(uint32_t, srcSize) F(uint32_t, outMaxM) F(uint32_t, outMaxK)           \
  F(uint32_t, outMaxSize) F(uint32_t, splitM) F(uint32_t, splitK) F(uint32_t, splitSize) F(uint32_t, reduceM)  \
  F(uint32_t, reduceK) F(uint32_t, reduceSize) F(uint32_t, rangeM) F(uint32_t, tailM) F(uint32_t, tailSplitSize) \
  F(uint32_t, tailReduceSize)
// clang-format on
#define TCEMU_KERNEL_TILING_MEMBER(type, name) type name = 0;

struct SoftMaxTiling {
  TCEMU_SOFTMAX_TILING_FIELDS(TCEMU_KERNEL_TILING_MEMBER)
};

struct TCubeTiling {
  int32_t usedCoreNum = 0;
  int32_t M = 0;
  int32_t N = 0;
  int32_t Ka = 0;
  int32_t Kb = 0;
  int32_t singleCoreM = 0;
  int32_t singleCoreN = 0;
  int32_t singleCoreK = 0;
  int32_t baseM = 0;
  int32_t baseN = 0;
  int32_t baseK = 0;
  int32_t depthA1 = 0;
  int32_t depthB1 = 0;
  int32_t stepM = 0;
  int32_t stepN = 0;
  int32_t isBias = 0;
  int32_t transLength = 0;
  int32_t iterateOrder = 0;
  int32_t shareMode = 0;
  int32_t shareL1Size = 0;
  int32_t shareL0CSize = 0;
  int32_t shareUbSize = 0;
  int32_t batchM = 0;
  int32_t batchN = 0;
  int32_t singleBatchM = 0;
  int32_t singleBatchN = 0;
  int32_t stepKa = 0;
  int32_t stepKb = 0;
  int32_t depthAL1CacheUB = 0;
  int32_t depthBL1CacheUB = 0;
  int32_t dbL0A = 0;
  int32_t dbL0B = 0;
  int32_t dbL0C = 0;
  int32_t ALayoutInfoB = 0;
  int32_t ALayoutInfoS = 0;
  int32_t ALayoutInfoN = 0;
  int32_t ALayoutInfoG = 0;
  int32_t ALayoutInfoD = 0;
  int32_t BLayoutInfoB = 0;
  int32_t BLayoutInfoS = 0;
  int32_t BLayoutInfoN = 0;
  int32_t BLayoutInfoG = 0;
  int32_t BLayoutInfoD = 0;
  int32_t CLayoutInfoB = 0;
  int32_t CLayoutInfoS1 = 0;
  int32_t CLayoutInfoN = 0;
  int32_t CLayoutInfoG = 0;
  int32_t CLayoutInfoS2 = 0;
  int32_t BatchNum = 0;
  int32_t reserved = 0;
};

struct LayerNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t meanTmpTensorPos = 0;
  uint32_t meanTmpTensorSize = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  float lastDimValueBack = 0;
};

struct RmsNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  float reciprocalOfHLength = 0;
  uint32_t mainBshLength = 0;
  uint32_t mainBsLength = 0;
  uint32_t mainBsLengthAlign = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailPos = 0;
  uint32_t tailBshLength = 0;
  uint32_t tailBsLength = 0;
};
struct UnPadTiling {
  uint32_t srcHeight = 0;
  uint32_t srcWidth = 0;
  uint32_t tmpBuffer1BlockNum = 0;
  uint32_t tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0;
  uint32_t widthTiling = 0;
  uint32_t widthFractal = 0;
  uint32_t widthFractalTail = 0;
};

struct PadTiling {
  uint32_t srcHeight = 0;
  uint32_t srcWidth = 0;
  uint32_t srcOriWidth = 0;
  uint32_t widthWithoutLastBlock = 0;
  uint32_t blocksPerRow = 0;
  uint32_t heightTiling = 0;
  uint32_t heightFractal = 0;
  uint32_t heightFractalTail = 0;
  uint32_t mainLoopOffset = 0;
  uint32_t tailBlockOffset = 0;
  uint32_t tmpBuffer1BlockNum = 0;
  uint32_t tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0;
  uint32_t widthTiling = 0;
  uint32_t widthFractal = 0;
  uint32_t widthFractalTail = 0;
  uint32_t widthFractalTailAlingned = 0;  // sic: CANN's field name
  uint32_t brcbTiling = 0;
  uint32_t brcbFractal = 0;
  uint32_t brcbFractalTail = 0;
  uint32_t maxRepeatTimes = 0;
  uint32_t brcbTilingRepeatTimes = 0;
  uint32_t brcbTilingRepeatTimesTail = 0;
  uint32_t brcbFractalTailRepeatTimes = 0;
  uint32_t brcbFractalTailRepeatTimesTail = 0;
  uint32_t reserved = 0;
};

// The same fields as SoftMaxTiling (CANN declares it separately).
struct LogSoftMaxTiling {
  TCEMU_SOFTMAX_TILING_FIELDS(TCEMU_KERNEL_TILING_MEMBER)
};
#pragma pack(pop)
