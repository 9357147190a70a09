// The high-level Matmul object (ascendc_api.md §4.4): C[singleM, singleN] = A[singleM, singleK] x B[singleK, singleN]
// (+ bias[singleN]) for this core's block, A and B in GM (ND, optionally transposed), C to GM or UB.
//
// Emulation. On hardware, in MIX mode the AIV cores send requests to the AIC, which loads A/B through L1 and L0,
// multiplies on the cube unit and moves C out through the fixpipe. Here the calling core computes the result itself
// and records that cube-side work in its own trace, per base block (baseM x baseN) and per baseK step:
// MTE2 (GM -> L1 of A and B), MTE1 (L1 -> L0A/L0B), M (Mmad with m/n/k), then one FIX (L0C -> GM/UB) per block.
// The calls are synchronous (sync = true): every pipe of the core has completed the matmul when a call returns.
//
// Numerics: inputs are widened to float; each C element starts from the bias (float, or 0) and adds the products
// a[i][k] * b[k][j] one k at a time in increasing k (float multiply, float add); the result is rounded once to the
// C type (RNE). enAtomic = 1 adds the float result to C's current value before that rounding.
#pragma once

#include "lib/matmul/matmul_config.h"

namespace tcemu::mm {

inline const char* kMatmul = "Matmul";

// Records one DMA-like instruction of the matmul in the trace.
inline uint32_t mmInstr(Core& core, Pipe pipe, OpClass cls, const char* name, const SrcLoc& loc, uint32_t dtBytes,
                        uint64_t bytes, uint32_t bursts, Space src, Space dst, const void* gm = nullptr) {
  uint32_t ins = core.begin(pipe, cls, name, loc);
  Instr& in = core.instr(ins);
  in.dtypeBytes = static_cast<uint8_t>(dtBytes);
  in.bytes = bytes;
  in.elements = dtBytes ? bytes / dtBytes : 0;
  in.bursts = bursts;
  in.burstBytes = bursts ? static_cast<uint32_t>(bytes / bursts) : 0;
  in.src = src;
  in.dst = dst;
  if (gm) in.gmAlign = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(gm) % 512);
  return ins;
}

}  // namespace tcemu::mm

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>>
class MatmulImpl {
 public:
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;

  MatmulImpl() = default;

  void Init(const TCubeTiling* __restrict cubeTiling, TPipe* tpipe = nullptr,
            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    tcemu::checkDtype<SrcAT, half, float, bfloat16_t>("Matmul A type", loc);
    tcemu::checkDtype<SrcBT, half, float, bfloat16_t>("Matmul B type", loc);
    tcemu::checkDtype<DstT, half, float, bfloat16_t>("Matmul C type", loc);
    if (!std::is_same_v<SrcAT, SrcBT>) {
      tcemu::fail(loc,
                  "Matmul with A of %s and B of %s: the cube unit multiplies equal input types; hint: use the "
                  "same TYPE in both MatmulType",
                  tcemu::dtypeName<SrcAT>(), tcemu::dtypeName<SrcBT>());
    }
    if (A_TYPE::format != CubeFormat::ND || B_TYPE::format != CubeFormat::ND || C_TYPE::format != CubeFormat::ND) {
      tcemu::fail(loc,
                  "Matmul with a %s operand: the emulator implements ND A, B and C in GM only; hint: declare "
                  "MatmulType<TPosition::GM, CubeFormat::ND, ...> for A, B and C",
                  A_TYPE::format != CubeFormat::ND   ? "non-ND A"
                  : B_TYPE::format != CubeFormat::ND ? "non-ND B"
                                                     : "non-ND C");
    }
    if (A_TYPE::pos != TPosition::GM || B_TYPE::pos != TPosition::GM) {
      tcemu::fail(loc,
                  "Matmul with A or B outside GM: the emulator implements GM inputs only; hint: declare "
                  "MatmulType<TPosition::GM, ...> for A and B");
    }
    if (cubeTiling == nullptr) {
      tcemu::fail(loc, "Matmul Init with a null tiling; hint: pass &tiling (a TCubeTiling from GetTiling)");
    }
    const TCubeTiling& t = *cubeTiling;
    if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0 || t.singleCoreM <= 0 || t.singleCoreN <= 0 ||
        t.singleCoreK <= 0) {
      tcemu::fail(loc,
                  "Matmul Init with an incomplete tiling: baseM/N/K = %d/%d/%d, singleCoreM/N/K = %d/%d/%d must "
                  "all be positive; hint: fill the tiling with MultiCoreMatmulTiling::GetTiling on the host",
                  t.baseM, t.baseN, t.baseK, t.singleCoreM, t.singleCoreN, t.singleCoreK);
    }
    checkFits("L0A", uint64_t(t.baseM) * t.baseK * sizeof(SrcAT), TOTAL_L0A_SIZE, "baseM x baseK", loc);
    checkFits("L0B", uint64_t(t.baseK) * t.baseN * sizeof(SrcBT), TOTAL_L0B_SIZE, "baseK x baseN", loc);
    checkFits("L0C", uint64_t(t.baseM) * t.baseN * sizeof(float), TOTAL_L0C_SIZE, "baseM x baseN (float)", loc);
    tiling_ = t;
    pipe_ = tpipe;
    orgM_ = t.M;
    orgN_ = t.N;
    orgKa_ = t.Ka;
    orgKb_ = t.Kb;
    singleM_ = t.singleCoreM;
    singleN_ = t.singleCoreN;
    singleK_ = t.singleCoreK;
    biasOn_ = t.isBias != 0;
    inited_ = true;
  }

  void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    (void)orgKc;
    orgM_ = orgM;
    orgN_ = orgN;
    orgKa_ = orgKa;
    orgKb_ = orgKb;
  }
  void SetSingleShape(int singleM, int singleN, int singleK) {
    singleM_ = singleM;
    singleN_ = singleN;
    singleK_ = singleK;
    resetIter();
  }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    if (tailM != -1) singleM_ = tailM;
    if (tailN != -1) singleN_ = tailN;
    if (tailK != -1) singleK_ = tailK;
    resetIter();
  }

  void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    a_ = gm.addr_;
    transA_ = isTransposeA;
    resetIter();
  }
  void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    b_ = gm.addr_;
    transB_ = isTransposeB;
    resetIter();
  }
  void SetBias(const GlobalTensor<BiasT>& biasGlobal) {
    bias_ = biasGlobal.addr_;
    biasOn_ = true;
    resetIter();
  }
  void DisableBias() {
    biasOn_ = false;
    resetIter();
  }
  void ClearBias() { DisableBias(); }
  void SetSelfDefineData(const uint64_t dataPtr) { (void)dataPtr; }
  void SetUserDefInfo(const uint64_t tilingPtr) { (void)tilingPtr; }
  void SetHF32(bool enableHF32 = false, int32_t transMode = 0) {
    (void)enableHF32;
    (void)transMode;
  }
  void SetSubBlockIdx(uint8_t subBlockIdx) { subBlockIdx_ = subBlockIdx; }
  uint8_t GetSubBlockIdx() { return subBlockIdx_; }
  template <class T>
  void SetWorkspace(__gm__ const T* addr, int size) {
    (void)addr;
    (void)size;
  }
  template <class T>
  void SetWorkspace(GlobalTensor<T>& addr) {
    (void)addr;
  }
  void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer) { (void)tmpBuffer; }

  // Computes the next baseM x baseN block of C; false once every block of the single-core shape was produced.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    checkReady("Iterate", loc);
    if (enPartialSum) {
      tcemu::fail(loc,
                  "Matmul Iterate with enPartialSum = true is not supported by the emulator; hint: compute the "
                  "full K in one Iterate");
    }
    const int mIter = ceilDiv(singleM_, tiling_.baseM), nIter = ceilDiv(singleN_, tiling_.baseN);
    if (iterDone_) return false;
    if (!iterStarted_) {
      iterStarted_ = true;
      curM_ = curN_ = 0;
    } else if (tiling_.iterateOrder == 0) {  // ORDER_M: walk down M first, then move to the next N column
      if (++curM_ == mIter) {
        curM_ = 0;
        if (++curN_ == nIter) return finishIter();
      }
    } else {
      if (++curN_ == nIter) {
        curN_ = 0;
        if (++curM_ == mIter) return finishIter();
      }
    }
    blockM_ = std::min(tiling_.baseM, singleM_ - curM_ * tiling_.baseM);
    blockN_ = std::min(tiling_.baseN, singleN_ - curN_ * tiling_.baseN);
    block_ = compute(curM_ * tiling_.baseM, curN_ * tiling_.baseN, blockM_, blockN_, loc);
    haveBlock_ = true;
    return true;
  }

  // Writes the block of the last Iterate to C in GM at its place in the [singleM, singleN] block (row pitch orgN).
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    checkBlock(loc);
    if (enSequentialWrite) {
      storeGm(gm.addr_, blockN_, block_, blockM_, blockN_, enAtomic, loc);
    } else {
      storeGm(gm.addr_ + int64_t(curM_) * tiling_.baseM * orgN_ + int64_t(curN_) * tiling_.baseN, orgN_, block_,
              blockM_, blockN_, enAtomic, loc);
    }
  }

  // Writes the block of the last Iterate to a UB tensor as [blockM, baseN] rows (row pitch baseN).
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    (void)enSequentialWrite;
    checkBlock(loc);
    storeUb(co2Local, tiling_.baseN, block_, blockM_, blockN_, enAtomic, loc);
  }

  // The whole [singleM, singleN] block to GM (row pitch orgN), base block by base block.
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  bool waitIterateAll = false, bool fakeMsg = false, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    (void)enSequentialWrite;
    (void)waitIterateAll;
    (void)fakeMsg;
    resetIter();
    while (Iterate<sync>(false, loc)) GetTensorC<sync>(gm, enAtomic, false, loc);
  }

  // The whole block to a UB tensor as [singleM, singleN] rows (row pitch singleN).
  template <bool sync = true>
  void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0,
                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    resetIter();
    while (Iterate<sync>(false, loc)) {
      LocalTensor<DstT> at = ubCmatrix[static_cast<uint32_t>(curM_ * tiling_.baseM * singleN_ + curN_ * tiling_.baseN)];
      storeUb(at, singleN_, block_, blockM_, blockN_, enAtomic, loc);
    }
  }

  MatrixOffset GetOffsetC() {
    return MatrixOffset{curM_ * tiling_.baseM * orgN_ + curN_ * tiling_.baseN, curM_ * tiling_.baseM,
                        curN_ * tiling_.baseN, blockM_, blockN_};
  }

  void End() { ended_ = true; }

  // Emulator internals.
  bool ended_ = false;

 private:
  static int ceilDiv(int a, int b) { return (a + b - 1) / b; }

  void checkFits(const char* mem, uint64_t bytes, uint32_t cap, const char* what, const tcemu::SrcLoc& loc) {
    if (bytes > cap) {
      tcemu::fail(loc,
                  "Matmul tiling does not fit %s: %s needs %llu bytes, %s holds %u; hint: lower baseM/baseN/baseK "
                  "(GetTiling picks values that fit)",
                  mem, what, static_cast<unsigned long long>(bytes), mem, cap);
    }
  }

  void checkReady(const char* what, const tcemu::SrcLoc& loc) {
    if (!inited_) {
      tcemu::fail(loc,
                  "Matmul %s before Init; hint: REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling) or "
                  "mm.Init(&tiling) first",
                  what);
    }
    if (!a_ || !b_) {
      tcemu::fail(loc, "Matmul %s before SetTensor%s; hint: call SetTensorA and SetTensorB with the GM inputs", what,
                  !a_ ? "A" : "B");
    }
    if (biasOn_ && !bias_) {
      tcemu::fail(loc,
                  "Matmul %s with bias enabled (tiling isBias = 1) but no SetBias; hint: SetBias(gm) or "
                  "DisableBias()",
                  what);
    }
    if (singleM_ <= 0 || singleN_ <= 0 || singleK_ <= 0) {
      tcemu::fail(loc,
                  "Matmul %s with single-core shape %d x %d x %d; hint: SetSingleShape/SetTail with positive sizes",
                  what, singleM_, singleN_, singleK_);
    }
  }

  void checkBlock(const tcemu::SrcLoc& loc) {
    if (!haveBlock_) {
      tcemu::fail(loc, "Matmul GetTensorC without a block: call it after an Iterate() that returned true");
    }
  }

  void resetIter() { iterStarted_ = iterDone_ = haveBlock_ = false; }
  bool finishIter() {
    iterDone_ = true;
    haveBlock_ = false;
    return false;
  }

  // Element (i, k) of A and (k, j) of B in this core's block, with the layouts SetTensorA/B described.
  float aAt(int i, int k) const {
    return tcemu::toFloat(transA_ ? a_[int64_t(k) * orgM_ + i] : a_[int64_t(i) * orgKa_ + k]);
  }
  float bAt(int k, int j) const {
    return tcemu::toFloat(transB_ ? b_[int64_t(j) * orgKb_ + k] : b_[int64_t(k) * orgN_ + j]);
  }

  // Checks and records the GM rows of an (rows x cols) window starting at `base` with row pitch `pitch` elements.
  template <typename T>
  void readWindow(uint32_t ins, const T* base, int64_t pitch, int rows, int cols, const char* what,
                  const tcemu::SrcLoc& loc) {
    tcemu::Core& core = tcemu::cur();
    for (int r = 0; r < rows; ++r) {
      const T* p = base + r * pitch;
      tcemu::checkGm(p, uint64_t(cols) * sizeof(T), what, loc);
      core.readGm(ins, p, uint64_t(cols) * sizeof(T), what, loc);
    }
  }

  std::vector<float> compute(int m0, int n0, int bm, int bn, const tcemu::SrcLoc& loc) {
    using namespace tcemu;
    Core& core = cur();
    core.barrierAll();  // the request reaches the cube side after the caller's earlier work (MIX message)
    if (biasOn_) {
      uint32_t ins = mm::mmInstr(core, Pipe::MTE2, OpClass::DmaIn, "Matmul CopyBias", loc, sizeof(BiasT),
                                 uint64_t(bn) * sizeof(BiasT), 1, Space::GM, Space::L1, bias_ + n0);
      readWindow(ins, bias_ + n0, 0, 1, bn, "Matmul bias", loc);
      mm::mmInstr(core, Pipe::MTE1, OpClass::DmaLocal, "Matmul LoadBias", loc, sizeof(BiasT),
                  uint64_t(bn) * sizeof(BiasT), 1, Space::L1, Space::BT);
    }
    for (int k0 = 0; k0 < singleK_; k0 += tiling_.baseK) {
      const int bk = std::min(tiling_.baseK, singleK_ - k0);
      const SrcAT* aBase = transA_ ? a_ + int64_t(k0) * orgM_ + m0 : a_ + int64_t(m0) * orgKa_ + k0;
      const SrcBT* bBase = transB_ ? b_ + int64_t(n0) * orgKb_ + k0 : b_ + int64_t(k0) * orgN_ + n0;
      uint32_t ia = mm::mmInstr(core, Pipe::MTE2, OpClass::DmaIn, "Matmul CopyA", loc, sizeof(SrcAT),
                                uint64_t(bm) * bk * sizeof(SrcAT), transA_ ? bk : bm, Space::GM, Space::L1, aBase);
      if (transA_) readWindow(ia, aBase, orgM_, bk, bm, "Matmul A", loc);
      else readWindow(ia, aBase, orgKa_, bm, bk, "Matmul A", loc);
      uint32_t ib = mm::mmInstr(core, Pipe::MTE2, OpClass::DmaIn, "Matmul CopyB", loc, sizeof(SrcBT),
                                uint64_t(bk) * bn * sizeof(SrcBT), transB_ ? bn : bk, Space::GM, Space::L1, bBase);
      if (transB_) readWindow(ib, bBase, orgKb_, bn, bk, "Matmul B", loc);
      else readWindow(ib, bBase, orgN_, bk, bn, "Matmul B", loc);
      mm::mmInstr(core, Pipe::MTE1, OpClass::DmaLocal, "Matmul LoadA", loc, sizeof(SrcAT),
                  uint64_t(bm) * bk * sizeof(SrcAT), 1, Space::L1, Space::L0A);
      mm::mmInstr(core, Pipe::MTE1, OpClass::DmaLocal, "Matmul LoadB", loc, sizeof(SrcBT),
                  uint64_t(bk) * bn * sizeof(SrcBT), 1, Space::L1, Space::L0B);
      uint32_t im = core.begin(Pipe::M, OpClass::Cube, "Mmad", loc);
      Instr& mi = core.instr(im);
      mi.dtypeBytes = sizeof(SrcAT);
      mi.m = static_cast<uint16_t>(bm);
      mi.n = static_cast<uint16_t>(bn);
      mi.k = static_cast<uint16_t>(bk);
      mi.elements = uint64_t(bm) * bn;
      mi.src = Space::L0A;
      mi.dst = Space::L0C;
    }
    std::vector<float> c(size_t(bm) * bn);
    for (int i = 0; i < bm; ++i) {
      for (int j = 0; j < bn; ++j) {
        float acc = biasOn_ ? tcemu::toFloat(bias_[n0 + j]) : 0.0f;
        for (int k = 0; k < singleK_; ++k) acc += aAt(m0 + i, k) * bAt(k, n0 + j);
        c[size_t(i) * bn + j] = acc;
      }
    }
    return c;
  }

  void storeGm(DstT* dst, int64_t pitch, const std::vector<float>& c, int bm, int bn, uint8_t enAtomic,
               const tcemu::SrcLoc& loc) {
    using namespace tcemu;
    Core& core = cur();
    uint32_t ins = mm::mmInstr(core, Pipe::FIX, OpClass::Fixpipe, "Fixpipe", loc, sizeof(DstT),
                               uint64_t(bm) * bn * sizeof(DstT), static_cast<uint32_t>(bm), Space::L0C, Space::GM, dst);
    for (int i = 0; i < bm; ++i) {
      DstT* row = dst + i * pitch;
      checkGm(row, uint64_t(bn) * sizeof(DstT), "Matmul C", loc);
      if (enAtomic) core.readGm(ins, row, uint64_t(bn) * sizeof(DstT), "Matmul C", loc);
      core.writeGm(ins, row, uint64_t(bn) * sizeof(DstT), "Matmul C", loc);
      for (int j = 0; j < bn; ++j) {
        float v = c[size_t(i) * bn + j];
        if (enAtomic) v = toFloat(row[j]) + v;
        row[j] = fromFloat<DstT>(v);
      }
    }
    core.barrierAll();  // synchronous: the call returns once C is in place
  }

  void storeUb(const LocalTensor<DstT>& dst, int64_t pitch, const std::vector<float>& c, int bm, int bn,
               uint8_t enAtomic, const tcemu::SrcLoc& loc) {
    using namespace tcemu;
    Core& core = cur();
    hl::checkUb(dst.ref_, "Matmul", "GetTensorC dst", loc);
    uint32_t ins = mm::mmInstr(core, Pipe::FIX, OpClass::Fixpipe, "Fixpipe", loc, sizeof(DstT),
                               uint64_t(bm) * bn * sizeof(DstT), static_cast<uint32_t>(bm), Space::L0C, Space::UB);
    for (int i = 0; i < bm; ++i) {
      if (enAtomic)
        core.read(ins, dst.ref_, uint64_t(i * pitch) * sizeof(DstT), uint64_t(bn) * sizeof(DstT),
                  "Matmul GetTensorC dst", loc);
      core.write(ins, dst.ref_, uint64_t(i * pitch) * sizeof(DstT), uint64_t(bn) * sizeof(DstT),
                 "Matmul GetTensorC dst", loc);
    }
    DstT* d = dst.GetPhyAddr();
    for (int i = 0; i < bm; ++i) {
      for (int j = 0; j < bn; ++j) {
        float v = c[size_t(i) * bn + j];
        if (enAtomic) v = toFloat(d[i * pitch + j]) + v;
        d[i * pitch + j] = fromFloat<DstT>(v);
      }
    }
    core.barrierAll();
  }

  TCubeTiling tiling_{};
  TPipe* pipe_ = nullptr;
  bool inited_ = false;
  int orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
  int singleM_ = 0, singleN_ = 0, singleK_ = 0;
  const SrcAT* a_ = nullptr;
  const SrcBT* b_ = nullptr;
  const BiasT* bias_ = nullptr;
  bool transA_ = false, transB_ = false, biasOn_ = false;
  bool iterStarted_ = false, iterDone_ = false, haveBlock_ = false;
  int curM_ = 0, curN_ = 0, blockM_ = 0, blockN_ = 0;
  std::vector<float> block_;
  uint8_t subBlockIdx_ = 0;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB>;

}  // namespace AscendC
