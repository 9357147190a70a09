// The parameter structs of data movement and of the cube path, with CANN 8.1's field names, defaults and
// constructor argument orders (kernel_struct_data_copy.h, kernel_struct_mm.h, kernel_struct_fixpipe.h), so that
// brace- and constructor-initialised params in kernels mean the same here as on the device.
#pragma once

#include <cstdint>

#include "emu/enums.h"

// clang-format off
typedef enum { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5, PAD_MODE6, PAD_MODE7,
               PAD_MODE8 } pad_t;
// clang-format on

namespace AscendC {

constexpr uint8_t DEFAULT_DATA_COPY_NBURST = 1;
constexpr uint8_t DEFAULT_DATA_COPY_STRIDE = 0;

enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };

// blockLen and strides in 32-byte blocks (DataCopy); blockLen in bytes for the DataCopyPad forms.
struct DataCopyParams {
  DataCopyParams() {}
  DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
  uint16_t blockCount = DEFAULT_DATA_COPY_NBURST;
  uint16_t blockLen = 0;
  uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
  uint16_t dstStride = DEFAULT_DATA_COPY_STRIDE;
};

struct DataCopyEnhancedParams {
  DataCopyEnhancedParams() {}
  DataCopyEnhancedParams(const BlockMode blockModeIn, const DeqScale deqScaleIn, const uint64_t deqValueIn,
                         const uint8_t sidStoreModeIn, const bool isReluIn, const pad_t padModeIn,
                         const uint64_t padValueIn)
      : blockMode(blockModeIn),
        deqScale(deqScaleIn),
        deqValue(deqValueIn),
        sidStoreMode(sidStoreModeIn),
        isRelu(isReluIn),
        padMode(padModeIn),
        padValue(padValueIn) {}
  BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
  DeqScale deqScale = DeqScale::DEQ_NONE;
  uint64_t deqValue = 0;
  uint8_t sidStoreMode = 0;
  bool isRelu = false;
  pad_t padMode = pad_t::PAD_NONE;
  uint64_t padValue = 0;
  uint64_t deqTensorAddr = 0;
};

struct DataCopyCO12DstParams {
  DataCopyCO12DstParams() {}
  DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn,
                        const uint16_t srcStrideIn, const QuantMode_t quantPreIn, const uint8_t reluPreIn,
                        const bool channelSplitIn, const bool nz2ndEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        quantPre(quantPreIn),
        reluPre(reluPreIn),
        channelSplit(channelSplitIn),
        nz2ndEn(nz2ndEnIn) {}
  uint8_t sid = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t dstStride = DEFAULT_DATA_COPY_STRIDE;
  uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
  uint8_t unitFlag = 0;
  uint8_t clipReluPre = 0;
  uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

struct DataCopyPadParams {
  DataCopyPadParams() {}
  DataCopyPadParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                    const uint64_t padValue)
      : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

struct DataCopyExtParams {
  DataCopyExtParams() {}
  DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn, const uint32_t dstStrideIn,
                    const uint32_t rsvIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
  uint16_t blockCount = DEFAULT_DATA_COPY_NBURST;
  uint32_t blockLen = 0;
  uint32_t srcStride = DEFAULT_DATA_COPY_STRIDE;
  uint32_t dstStride = DEFAULT_DATA_COPY_STRIDE;
  uint32_t rsv = 0;
};

template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() {}
  DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue, T padValue)
      : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = 0;
};

struct Nd2NzParams {
  Nd2NzParams() {}
  Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
              const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn, const uint16_t dstNzC0StrideIn,
              const uint16_t dstNzNStrideIn, const uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

// --- cube -------------------------------------------------------------------------------------------------------

struct LoadData2DParams {
  LoadData2DParams() {}
  LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                   const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn, const uint8_t addrModeIn)
      : startIndex(startIndexIn),
        dstGap(dstGapIn),
        srcStride(srcStrideIn),
        ifTranspose(ifTransposeIn),
        repeatTimes(repeatTimesIn),
        sid(sidIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint16_t dstGap = 0;
  uint16_t srcStride = 0;
  bool ifTranspose = 0;
  uint8_t repeatTimes = 0;
  uint8_t sid = 0;
  uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct MmadParams {
  MmadParams() {}
  MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn, const int32_t fmOffsetIn,
             const bool enSsparseIn, const bool enWinogradAIn, const bool enWinogradBIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        isBias(isBiasIn),
        fmOffset(fmOffsetIn),
        enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn),
        enWinogradB(enWinogradBIn) {}
  MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
             const bool cmatrixSourceIn, const bool cmatrixInitValIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        unitFlag(unitFlagIn),
        cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;  // deprecated: true accumulates into C (C += A*B)
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;  // initial C from the bias table (C2) instead of L0C
  bool cmatrixInitVal = true;  // initial C is zero
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
  FixpipeParamsV220() {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                    const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                    const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn),
        unitFlag(unitFlagIn) {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                    const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                    const uint16_t dstNdStrideIn, const uint8_t unitFlagIn, const bool isChannelSplitIn)
      : FixpipeParamsV220(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn, reluEnIn, quantPreIn, deqScalarIn, ndNumIn,
                          srcNdStrideIn, dstNdStrideIn, unitFlagIn) {
    isChannelSplit = isChannelSplitIn;
  }
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;  // L0C distance between 16-column strips, in 16-element rows
  uint32_t dstStride = 0;  // ND: destination row length in elements; NZ: strip-to-strip distance in 32 bytes
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};
using FixpipeParamsM300 = FixpipeParamsV220;
using FixpipeParamsM310 = FixpipeParamsV220;

}  // namespace AscendC
