// Host-side Matmul tiling (CANN's matmul_tiling::MatmulApiTiling and MultiCoreMatmulTiling, tiling/tiling_api.h).
//
// GetTiling picks a tiling the emulator's Matmul (lib/matmul/matmul_impl.h) accepts and that respects the 910B
// buffers: the [M, N] output is split over at most SetDim cores into 16-aligned singleCoreM x singleCoreN blocks
// (the split with the smallest per-core block, then the least A+B traffic, then the fewest cores), K is not split;
// base blocks are at most 128 x 256 with baseK the largest multiple of the 32-byte fractal width that double-buffers
// in L0A and L0B (32 KiB each), and baseM x baseN floats fit L0C. L1 holds stepKa/stepKb base K slices, double
// buffered. Returns -1 (and leaves the tiling untouched) for missing shapes or a SetFixSplit that does not fit.
#pragma once

#include <map>

#include "emu/host_type_enums.h"
#include "tiling/hl_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

struct TCubeTiling : ::TCubeTiling {
  TCEMU_TILING_COMMON(TCubeTiling)
  TCEMU_TILING_FIELD(int32_t, usedCoreNum)
  TCEMU_TILING_FIELD(int32_t, M)
  TCEMU_TILING_FIELD(int32_t, N)
  TCEMU_TILING_FIELD(int32_t, Ka)
  TCEMU_TILING_FIELD(int32_t, Kb)
  TCEMU_TILING_FIELD(int32_t, singleCoreM)
  TCEMU_TILING_FIELD(int32_t, singleCoreN)
  TCEMU_TILING_FIELD(int32_t, singleCoreK)
  TCEMU_TILING_FIELD(int32_t, baseM)
  TCEMU_TILING_FIELD(int32_t, baseN)
  TCEMU_TILING_FIELD(int32_t, baseK)
  TCEMU_TILING_FIELD(int32_t, depthA1)
  TCEMU_TILING_FIELD(int32_t, depthB1)
  TCEMU_TILING_FIELD(int32_t, stepM)
  TCEMU_TILING_FIELD(int32_t, stepN)
  TCEMU_TILING_FIELD(int32_t, isBias)
  TCEMU_TILING_FIELD(int32_t, transLength)
  TCEMU_TILING_FIELD(int32_t, iterateOrder)
  TCEMU_TILING_FIELD(int32_t, shareMode)
  TCEMU_TILING_FIELD(int32_t, shareL1Size)
  TCEMU_TILING_FIELD(int32_t, shareL0CSize)
  TCEMU_TILING_FIELD(int32_t, shareUbSize)
  TCEMU_TILING_FIELD(int32_t, batchM)
  TCEMU_TILING_FIELD(int32_t, batchN)
  TCEMU_TILING_FIELD(int32_t, singleBatchM)
  TCEMU_TILING_FIELD(int32_t, singleBatchN)
  TCEMU_TILING_FIELD(int32_t, stepKa)
  TCEMU_TILING_FIELD(int32_t, stepKb)
  TCEMU_TILING_FIELD(int32_t, depthAL1CacheUB)
  TCEMU_TILING_FIELD(int32_t, depthBL1CacheUB)
  TCEMU_TILING_FIELD(int32_t, dbL0A)
  TCEMU_TILING_FIELD(int32_t, dbL0B)
  TCEMU_TILING_FIELD(int32_t, dbL0C)
  TCEMU_TILING_FIELD(int32_t, ALayoutInfoB)
  TCEMU_TILING_FIELD(int32_t, ALayoutInfoS)
  TCEMU_TILING_FIELD(int32_t, ALayoutInfoN)
  TCEMU_TILING_FIELD(int32_t, ALayoutInfoG)
  TCEMU_TILING_FIELD(int32_t, ALayoutInfoD)
  TCEMU_TILING_FIELD(int32_t, BLayoutInfoB)
  TCEMU_TILING_FIELD(int32_t, BLayoutInfoS)
  TCEMU_TILING_FIELD(int32_t, BLayoutInfoN)
  TCEMU_TILING_FIELD(int32_t, BLayoutInfoG)
  TCEMU_TILING_FIELD(int32_t, BLayoutInfoD)
  TCEMU_TILING_FIELD(int32_t, CLayoutInfoB)
  TCEMU_TILING_FIELD(int32_t, CLayoutInfoS1)
  TCEMU_TILING_FIELD(int32_t, CLayoutInfoN)
  TCEMU_TILING_FIELD(int32_t, CLayoutInfoG)
  TCEMU_TILING_FIELD(int32_t, CLayoutInfoS2)
  TCEMU_TILING_FIELD(int32_t, BatchNum)
  TCEMU_TILING_FIELD(int32_t, reserved)
};

}  // namespace optiling

namespace matmul_tiling {

constexpr int32_t UINT8_BYTES = 1;
constexpr int32_t INT8_BYTES = 1;
constexpr int32_t FP32_BYTES = 4;
constexpr int32_t FP16_BYTES = 2;
constexpr int32_t C0_SIZE = 16;
constexpr int32_t C0_BYTE_SIZE = 32;

// clang-format off
enum class DataType : int32_t {
  DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8,
  DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13, DT_BF16 = 27, DT_UNDEFINED = 28,
  DT_INT4 = 29, DT_BFLOAT16 = 33, DT_MAX = 34
};
// clang-format on

inline uint32_t dataTypeBytes(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
    case DataType::DT_UINT32: return 4;
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16:
    case DataType::DT_BFLOAT16:
    case DataType::DT_INT16:
    case DataType::DT_UINT16: return 2;
    case DataType::DT_INT64:
    case DataType::DT_UINT64:
    case DataType::DT_DOUBLE: return 8;
    default: return 1;
  }
}

// clang-format off
enum class TPosition : int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                 SHM = SPM, TSCM, MAX };
// clang-format on
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };

struct MatTilingType {
  TPosition pos = TPosition::GM;
  CubeFormat type = CubeFormat::ND;
  DataType dataType = DataType::DT_FLOAT;
  bool isTrans = false;
};

struct PlatformInfo {
  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
  uint64_t l1Size = 512 * 1024;
  uint64_t l0CSize = 128 * 1024;
  uint64_t ubSize = 192 * 1024;
  uint64_t l0ASize = 64 * 1024;
  uint64_t l0BSize = 64 * 1024;
};

class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase() = default;
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform) {
    uint64_t v = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v);
    platform_.l1Size = v;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v);
    platform_.l0CSize = v;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, v);
    platform_.ubSize = v;
  }
  explicit MatmulApiTilingBase(const PlatformInfo& platform) : platform_(platform) {}
  virtual ~MatmulApiTilingBase() = default;

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
    aType_ = {pos, type, dataType, isTrans};
    return 0;
  }
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
    bType_ = {pos, type, dataType, isTrans};
    return 0;
  }
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
    cType_ = {pos, type, dataType, false};
    return 0;
  }
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
    biasType_ = {pos, type, dataType, false};
    return 0;
  }
  int32_t SetDequantType(DequantType dequantType) {
    deqType = dequantType;
    return 0;
  }
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k) {
    m_ = m;
    n_ = n;
    k_ = k;
    return m > 0 && n > 0 && k > 0 ? 0 : -1;
  }
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
    return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
  }
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
    orgM_ = orgMIn;
    orgN_ = orgNIn;
    orgKa_ = orgKaIn;
    orgKb_ = orgKbIn;
    return orgMIn > 0 && orgNIn > 0 && orgKaIn > 0 && orgKbIn > 0 ? 0 : -1;
  }
  int32_t SetBias(bool isBiasIn = false) {
    isBias_ = isBiasIn;
    return 0;
  }
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
    fixM_ = baseMIn;
    fixN_ = baseNIn;
    fixK_ = baseKIn;
    return 0;
  }
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1) {
    (void)btSize;
    if (l1Size != -1) platform_.l1Size = static_cast<uint64_t>(l1Size);
    if (l0CSize != -1) platform_.l0CSize = static_cast<uint64_t>(l0CSize);
    if (ubSize != -1) platform_.ubSize = static_cast<uint64_t>(ubSize);
    return 0;
  }
  int32_t SetTraverse(MatrixTraverse traverse) {
    traverse_ = traverse;
    return 0;
  }
  int32_t SetMadType(MatrixMadType madType) {
    madType_ = madType;
    return 0;
  }
  int32_t GetBaseM() const { return tiling_.baseM; }
  int32_t GetBaseN() const { return tiling_.baseN; }
  int32_t GetBaseK() const { return tiling_.baseK; }

  virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;
  virtual int64_t GetTiling(TCubeTiling& tiling) = 0;

  optiling::TCubeTiling tiling_;
  MatTilingType aType_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false};
  MatTilingType bType_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false};
  MatTilingType cType_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
  MatTilingType biasType_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
  MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
  MatrixMadType madType_ = MatrixMadType::NORMAL;
  DequantType deqType = DequantType::SCALAR;

 protected:
  // Fills tiling_ for a [m_, n_, k_] problem split over at most `dim` cores (singleM/N/K > 0 fixes the block).
  int64_t computeTiling(int32_t dim, int32_t singleM, int32_t singleN, int32_t singleK) {
    if (m_ <= 0 || n_ <= 0 || k_ <= 0 || dim <= 0) return -1;
    const int64_t sa = dataTypeBytes(aType_.dataType), sb = dataTypeBytes(bType_.dataType);
    const int64_t l0a = platform_.l0ASize, l0b = platform_.l0BSize, l0c = platform_.l0CSize;
    int32_t sm = singleM, sn = singleN;
    if (sm <= 0 || sn <= 0) {
      int64_t best[3] = {INT64_MAX, INT64_MAX, INT64_MAX};
      for (int32_t mDim = 1; mDim <= dim; ++mDim) {
        int32_t nDim = dim / mDim;
        int32_t cm = std::min<int32_t>(static_cast<int32_t>(tcemu::roundUp(tcemu::ceilDiv(m_, mDim), 16)), m_);
        int32_t cn = std::min<int32_t>(static_cast<int32_t>(tcemu::roundUp(tcemu::ceilDiv(n_, nDim), 16)), n_);
        int64_t used = int64_t(tcemu::ceilDiv(m_, cm)) * int64_t(tcemu::ceilDiv(n_, cn));
        int64_t key[3] = {int64_t(cm) * cn, int64_t(cm) + cn, used};
        if (std::lexicographical_compare(key, key + 3, best, best + 3)) {
          std::copy(key, key + 3, best);
          sm = cm;
          sn = cn;
        }
      }
    }
    const int32_t sk = singleK > 0 ? singleK : k_;
    const int32_t c0a = static_cast<int32_t>(32 / sa);
    int32_t bm = fixM_ > 0 ? fixM_ : std::min<int32_t>(128, static_cast<int32_t>(tcemu::roundUp(sm, 16)));
    int32_t bn = fixN_ > 0 ? fixN_ : std::min<int32_t>(256, static_cast<int32_t>(tcemu::roundUp(sn, 16)));
    if (fixN_ <= 0 && int64_t(bm) * bn * 4 > l0c) bn = static_cast<int32_t>(l0c / 4 / bm / 16 * 16);
    int32_t bk = fixK_;
    if (bk <= 0) {
      int64_t byA = l0a / 2 / (bm * sa), byB = l0b / 2 / (bn * sb);
      bk = static_cast<int32_t>(std::min(byA, byB) / c0a * c0a);
      bk = std::min<int32_t>(bk, static_cast<int32_t>(tcemu::roundUp(sk, c0a)));
    }
    if (bm <= 0 || bn <= 0 || bk <= 0) return -1;
    if (int64_t(bm) * bk * sa > l0a || int64_t(bk) * bn * sb > l0b || int64_t(bm) * bn * 4 > l0c) return -1;
    const int32_t kSteps = static_cast<int32_t>(tcemu::ceilDiv(sk, bk));
    int32_t stepK = std::min<int32_t>(kSteps, 4), depth = 2;
    auto l1Need = [&](int32_t steps, int32_t d) {
      return int64_t(d) * steps * (int64_t(bm) * bk * sa + int64_t(bk) * bn * sb) + (isBias_ ? int64_t(bn) * 4 : 0);
    };
    while (l1Need(stepK, depth) > int64_t(platform_.l1Size) && (stepK > 1 || depth > 1)) {
      if (stepK > 1) --stepK;
      else depth = 1;
    }
    if (l1Need(stepK, depth) > int64_t(platform_.l1Size)) return -1;
    optiling::TCubeTiling t;
    t.usedCoreNum = static_cast<int32_t>(tcemu::ceilDiv(m_, sm) * tcemu::ceilDiv(n_, sn));
    t.M = orgM_ > 0 ? orgM_ : m_;
    t.N = orgN_ > 0 ? orgN_ : n_;
    t.Ka = orgKa_ > 0 ? orgKa_ : k_;
    t.Kb = orgKb_ > 0 ? orgKb_ : k_;
    t.singleCoreM = sm;
    t.singleCoreN = sn;
    t.singleCoreK = sk;
    t.baseM = bm;
    t.baseN = bn;
    t.baseK = bk;
    t.stepM = 1;
    t.stepN = 1;
    t.stepKa = stepK;
    t.stepKb = stepK;
    t.depthA1 = stepK * depth;
    t.depthB1 = stepK * depth;
    t.isBias = isBias_ ? 1 : 0;
    t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
    t.shareL1Size = static_cast<int32_t>(l1Need(stepK, depth));
    t.dbL0A = 2 * int64_t(bm) * bk * sa <= l0a ? 2 : 1;
    t.dbL0B = 2 * int64_t(bk) * bn * sb <= l0b ? 2 : 1;
    t.dbL0C = 2 * int64_t(bm) * bn * 4 <= l0c ? 2 : 1;
    t.shareL0CSize = static_cast<int32_t>(int64_t(bm) * bn * 4 * t.dbL0C);
    t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
    tiling_ = t;
    return 0;
  }

  PlatformInfo platform_;
  int32_t m_ = 0, n_ = 0, k_ = 0;
  int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
  int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
  bool isBias_ = false;
};

// Single-core tiling: SetShape gives the core's own [M, N, K] block.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  MatmulApiTiling() = default;
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  explicit MatmulApiTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
  int64_t GetTiling(optiling::TCubeTiling& tiling) override {
    if (computeTiling(1, m_, n_, k_) != 0) return -1;
    tiling = tiling_;
    return 0;
  }
  int64_t GetTiling(TCubeTiling& tiling) override {
    if (computeTiling(1, m_, n_, k_) != 0) return -1;
    tiling = tiling_;
    return 0;
  }
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling() = default;
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  explicit MultiCoreMatmulTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
  int32_t SetDim(int32_t dim) {
    dim_ = dim;
    return dim > 0 ? 0 : -1;
  }
  int32_t SetShape(int32_t m, int32_t n, int32_t k) override { return MatmulApiTilingBase::SetShape(m, n, k); }
  virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
    singleM_ = singleMIn;
    singleN_ = singleNIn;
    singleK_ = singleKIn;
    return 0;
  }
  int64_t GetTiling(optiling::TCubeTiling& tiling) override {
    if (computeTiling(dim_, singleM_, singleN_, singleK_) != 0) return -1;
    tiling = tiling_;
    return 0;
  }
  int64_t GetTiling(TCubeTiling& tiling) override {
    if (computeTiling(dim_, singleM_, singleN_, singleK_) != 0) return -1;
    tiling = tiling_;
    return 0;
  }
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
    shapeM = tiling_.singleCoreM;
    shapeN = tiling_.singleCoreN;
    shapeK = tiling_.singleCoreK;
    return 0;
  }
  // Cores used and how they split M and N (after GetTiling).
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
    if (tiling_.singleCoreM <= 0 || tiling_.singleCoreN <= 0) return -1;
    mDim = static_cast<int32_t>(tcemu::ceilDiv(m_, tiling_.singleCoreM));
    nDim = static_cast<int32_t>(tcemu::ceilDiv(n_, tiling_.singleCoreN));
    dim = mDim * nDim;
    return 0;
  }

 private:
  int32_t dim_ = 1;
  int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1;
};

}  // namespace matmul_tiling
