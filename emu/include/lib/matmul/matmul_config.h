// Matmul type and configuration declarations (CANN's MatmulType, MatmulConfig, CFG_NORM/CFG_MDL, callbacks).
// The emulator computes the same result for every configuration; the config fields are accepted and kept only so
// kernels written against the real headers compile unchanged.
#pragma once

#include "kernel_operator.h"

namespace AscendC {

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};

struct MatmulConfig {
  bool doNorm = false;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  uint32_t basicM = 0;
  uint32_t basicN = 0;
  uint32_t basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
  uint32_t singleCoreM = 0;
  uint32_t singleCoreN = 0;
  uint32_t singleCoreK = 0;
  uint32_t stepM = 0;
  uint32_t stepN = 0;
  uint32_t baseMN = 0;
  uint32_t singleCoreMN = 0;
  bool enUnitFlag = true;
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
  bool doIBShareNorm = false;
  bool doSpecialMDL = false;
  bool enableInit = true;
  BatchMode batchMode = BatchMode::NONE;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse = false;
  bool enableL1CacheUB = false;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder{IterateOrder::UNDEF};
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableDoubleCache = false;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
};

constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                       const bool isVecND2NZ = false,
                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       const bool isMsgReuse = true,
                                       const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       const bool enUnitFlag = true, const bool enableMixDualMaster = false) {
  MatmulConfig c{};
  c.doNorm = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enUnitFlag = enUnitFlag;
  c.enableMixDualMaster = enableMixDualMaster;
  return c;
}

constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                    const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    const bool enUnitFlag = false, const bool isMsgReuse = true,
                                    const bool enableUBReuse = true, const bool enableL1CacheUB = false,
                                    const bool enableMixDualMaster = false, const bool enableKdimReorderLoad = false) {
  MatmulConfig c{};
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  return c;
}

constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                      const bool intrinsicsLimit = false, const bool batchLoop = false,
                                      const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c{};
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.batchMode = bmmMode;
  return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

// User callbacks replacing the library's copy-in/out stages; the emulator does not call them.
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {};

struct MatrixOffset {
  int32_t offset;
  int32_t row, col;
  int32_t height, width;
};

}  // namespace AscendC
