// The cube path (ascendc_api.md §4): GM ND -> L1 NZ (DataCopy with Nd2NzParams, MTE2), L1 -> L0A/L0B
// (LoadData, MTE1), Mmad (M); L0C -> GM / L1 (Fixpipe and DataCopy with DataCopyCO12DstParams, FIX) is emu/fixpipe.h.
//
// Layouts, with C0 = 32 / sizeof(T) elements and 512-byte fractals:
//   L1 NZ      element (r, c) of an ND matrix at (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0
//   L0A Zz     A(i, k) at ((i / 16) * K1 + k / K0) * 16 * K0 + (i % 16) * K0 + k % K0
//   L0B Zn     B(k, j) at ((k / K0) * N1 + j / 16) * 16 * K0 + (j % 16) * K0 + k % K0
//   L0C NZ     C(i, j) at (j / 16) * M1 * 256 + i * 16 + j % 16           (M1, N1, K1: counts of 16 / 16 / K0)
// Every call does nothing on an AIV core: a split-architecture build compiles cube work away there.
#pragma once

#include "emu/datacopy.h"

namespace tcemu {

// The ND -> NZ copy. Columns from dValue up to the next C0 boundary are zero-filled in each row.
template <typename T>
inline void nd2nz(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                  const AscendC::Nd2NzParams& p, const SrcLoc& loc) {
  if (!onCubeCore()) return;
  if (dst.ref_.mem != Mem::L1) {
    fail(loc, "DataCopy with Nd2NzParams to %s (%s): ND->NZ copies from GM reach only L1 (A1/B1) on 910B",
         memName(dst.ref_.mem), positionName(dst.ref_.pos));
  }
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "Nd2Nz moves 1-, 2- or 4-byte elements");
  checkRange("DataCopy with Nd2NzParams", "ndNum", p.ndNum, 0, 4095, "copy fewer matrices per call", loc);
  checkRange("DataCopy with Nd2NzParams", "nValue", p.nValue, 0, 16384, "copy fewer rows per call", loc);
  checkRange("DataCopy with Nd2NzParams", "dstNzC0Stride", p.dstNzC0Stride, 0, 16384, "use a smaller tile", loc);
  checkRange("DataCopy with Nd2NzParams", "dstNzNStride", p.dstNzNStride, 0, 16384, "use a smaller tile", loc);
  if (p.dValue > p.srcDValue) {
    fail(loc,
         "DataCopy with Nd2NzParams: dValue %u is larger than the source row pitch srcDValue %u; hint: "
         "srcDValue is the full row length of the GM matrix in elements",
         p.dValue, p.srcDValue);
  }
  Core& core = cur();
  core.checkAlign(dst.ref_, kBlock, "DataCopy dst", loc);
  uint32_t ins = core.begin(Pipe::MTE2, OpClass::DmaIn, "DataCopy", loc);
  const uint32_t c0 = kBlock / sizeof(T);
  uint32_t blocks = static_cast<uint32_t>(ceilDiv(p.dValue, c0));
  dmaInfo(core, ins, sizeof(T), uint32_t{p.ndNum} * p.nValue, uint64_t{p.dValue} * sizeof(T), src.addr_, Space::GM,
          Space::L1);
  uint8_t* l1 = core.ptr(Mem::L1, dst.ref_.offset);
  for (uint64_t nd = 0; nd < p.ndNum; ++nd) {
    const T* s0 = src.addr_ + nd * p.srcNdMatrixStride;
    uint64_t d0 = nd * p.dstNzMatrixStride * sizeof(T);
    for (uint64_t r = 0; r < p.nValue; ++r) {
      const T* row = s0 + r * p.srcDValue;
      checkGm(row, uint64_t{p.dValue} * sizeof(T), "DataCopy src", loc);
      core.readGm(ins, row, uint64_t{p.dValue} * sizeof(T), "DataCopy src", loc);
      for (uint32_t b = 0; b < blocks; ++b) {
        uint64_t d = d0 + (uint64_t{b} * p.dstNzC0Stride + r * p.dstNzNStride) * kBlock;
        core.write(ins, dst.ref_, d, kBlock, "DataCopy dst", loc);
        T* out = reinterpret_cast<T*>(l1 + d);
        for (uint32_t c = 0; c < c0; ++c) {
          uint32_t col = b * c0 + c;
          out[c] = col < p.dValue ? row[col] : T(0.0f);
        }
      }
    }
  }
}

// Copies one 512-byte fractal between local memories, passing on which bytes were ever written instead of
// failing: padding rows of a fractal are never filled by ND->NZ, and the cube ignores them. Mmad checks the
// bytes it actually uses. With `transpose`, 16x16 fractals of 2-byte elements are transposed.
inline void copyFractal(Core& core, uint32_t ins, const TensorRef& src, uint64_t srcOff, const TensorRef& dst,
                        uint64_t dstOff, bool transpose, const SrcLoc& loc) {
  constexpr uint32_t kFrac = 512;
  uint32_t s = core.checkRange(src, srcOff, kFrac, "LoadData src", loc);
  Arena& sa = core.arena(src.mem);
  uint8_t data[kFrac], written[kFrac];
  std::memcpy(data, sa.data.data() + s, kFrac);
  sa.written.get(s, written, kFrac);
  for (uint32_t b = 0; b < kFrac;) {  // record the reads of the written runs for the hazard checks
    if (!written[b]) {
      ++b;
      continue;
    }
    uint32_t e = b;
    while (e < kFrac && written[e]) ++e;
    core.read(ins, src, srcOff + b, e - b, "LoadData src", loc);
    b = e;
  }
  core.write(ins, dst, dstOff, kFrac, "LoadData dst", loc);
  uint32_t d = static_cast<uint32_t>(dst.offset + dstOff);
  Arena& da = core.arena(dst.mem);
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t c = 0; c < 16; ++c) {
      uint32_t from = (r * 16 + c) * 2, to = transpose ? (c * 16 + r) * 2 : from;
      std::memcpy(da.data.data() + d + to, data + from, 2);
      da.written.put(d + to, written + from, 2);
    }
  }
}

template <typename T>
inline void loadData2d(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::LoadData2DParams& p, const SrcLoc& loc) {
  if (!onCubeCore()) return;
  checkDtype<T, uint8_t, int8_t, uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t, float>("LoadData", loc);
  if (src.ref_.mem != Mem::L1) {
    fail(loc, "LoadData src is in %s (%s); LoadData with LoadData2DParams reads L1 (A1/B1)", memName(src.ref_.mem),
         positionName(src.ref_.pos));
  }
  if (dst.ref_.mem != Mem::L0A && dst.ref_.mem != Mem::L0B) {
    fail(loc, "LoadData dst is in %s (%s); LoadData with LoadData2DParams writes L0A (A2) or L0B (B2)",
         memName(dst.ref_.mem), positionName(dst.ref_.pos));
  }
  if (p.ifTranspose && sizeof(T) != 2) {
    fail(loc,
         "LoadData with ifTranspose transposes 16x16 fractals of 2-byte types only, not %s; hint: use "
         "LoadDataWithTranspose, or lay the matrix out transposed in GM",
         dtypeName<T>());
  }
  Core& core = cur();
  core.checkAlign(src.ref_, kBlock, "LoadData src", loc);
  core.checkAlign(dst.ref_, 512, "LoadData dst", loc);
  uint32_t ins = core.begin(Pipe::MTE1, OpClass::DmaLocal, "LoadData", loc);
  dmaInfo(core, ins, sizeof(T), p.repeatTimes, 512, nullptr, Space::L1, spaceOf(dst.ref_.mem));
  for (uint64_t i = 0; i < p.repeatTimes; ++i) {
    uint64_t s = (p.startIndex + i * p.srcStride) * 512;
    uint64_t d = i * (1 + uint64_t{p.dstGap}) * 512;
    copyFractal(core, ins, src.ref_, s, dst.ref_, d, p.ifTranspose, loc);
  }
}

// GM -> L0A / L0B / L1 (load_gm_to_ca/cb/cbuf, MTE2): the same fractal walk as from L1, for data already in
// fractal order in GM. The device ignores ifTranspose on this path, and so does the emulator.
template <typename T>
inline void loadData2dFromGm(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                             const AscendC::LoadData2DParams& p, const SrcLoc& loc) {
  if (!onCubeCore()) return;
  checkDtype<T, uint8_t, int8_t, uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t, float>("LoadData", loc);
  Mem m = dst.ref_.mem;
  if (m != Mem::L0A && m != Mem::L0B && m != Mem::L1) {
    fail(loc,
         "LoadData from GM to %s (%s); LoadData with LoadData2DParams from GM writes L0A (A2), L0B (B2) or L1 "
         "(A1/B1)",
         memName(m), positionName(dst.ref_.pos));
  }
  if (m == Mem::L1 && p.addrMode != 0) {
    fail(loc, "LoadData from GM to L1 with addrMode %u (decreasing addresses) is not emulated; hint: use addrMode 0",
         static_cast<unsigned>(p.addrMode));
  }
  Core& core = cur();
  core.checkAlign(dst.ref_, m == Mem::L1 ? kBlock : 512, "LoadData dst", loc);
  uint32_t ins = core.begin(Pipe::MTE2, OpClass::DmaIn, "LoadData", loc);
  const uint8_t* gm = reinterpret_cast<const uint8_t*>(src.addr_);
  dmaInfo(core, ins, sizeof(T), p.repeatTimes, 512, gm, Space::GM, spaceOf(m));
  uint8_t* base = core.ptr(m, dst.ref_.offset);
  for (uint64_t i = 0; i < p.repeatTimes; ++i) {
    const uint8_t* s = gm + (p.startIndex + i * p.srcStride) * 512;
    uint64_t d = i * (1 + uint64_t{p.dstGap}) * 512;
    checkGm(s, 512, "LoadData src", loc);
    core.readGm(ins, s, 512, "LoadData src", loc);
    core.write(ins, dst.ref_, d, 512, "LoadData dst", loc);
    std::memcpy(base + d, s, 512);
  }
}

// The (dst, fm, filter) dtype triples Mmad accepts on 910B.
template <typename D, typename A, typename B>
constexpr bool mmadTypesOk() {
  return std::is_same_v<A, B> &&
         ((std::is_same_v<D, int32_t> && std::is_same_v<A, int8_t>) ||
          (std::is_same_v<D, float> &&
           (std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t> || std::is_same_v<A, float>)));
}

// C = init + A * B over the m x n x k operands. Each output sums its k products in increasing k, one rounding per
// add in float (int32 exactly), starting from its initial value; half and bf16 products are exact in float.
// Outputs in the padding of the last fractals (rows >= m, columns >= n) are written as their initial value.
template <typename D, typename A, typename B>
inline void mmad(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<A>& fm,
                 const AscendC::LocalTensor<B>& filter, const AscendC::MmadParams& p, const char* api,
                 const TensorRef* bias, const SrcLoc& loc) {
  if constexpr (!mmadTypesOk<D, A, B>()) {
    fail(loc,
         "%s does not support dst %s, fm %s, filter %s on 910B (supported: int8_t x int8_t -> int32_t, half x "
         "half -> float, bfloat16_t x bfloat16_t -> float, float x float -> float)",
         api, dtypeName<D>(), dtypeName<A>(), dtypeName<B>());
  } else {
    Core& core = cur();
    if (dst.ref_.mem != Mem::L0C || fm.ref_.mem != Mem::L0A || filter.ref_.mem != Mem::L0B) {
      fail(loc,
           "%s operands must be dst in CO1 (L0C), fm in A2 (L0A), filter in B2 (L0B); got dst in %s, fm in %s, "
           "filter in %s",
           api, memName(dst.ref_.mem), memName(fm.ref_.mem), memName(filter.ref_.mem));
    }
    checkRange(api, "m", p.m, 0, 4095, "split M into several Mmad calls", loc);
    checkRange(api, "n", p.n, 0, 4095, "split N into several Mmad calls", loc);
    checkRange(api, "k", p.k, 0, 4095, "split K and accumulate with cmatrixInitVal = false", loc);
    core.checkAlign(dst.ref_, 1024, "Mmad dst", loc);
    core.checkAlign(fm.ref_, 512, "Mmad fm", loc);
    core.checkAlign(filter.ref_, 512, "Mmad filter", loc);
    uint32_t ins = core.begin(Pipe::M, OpClass::Cube, api, loc);
    Instr& in = core.instr(ins);
    in.dtypeBytes = sizeof(A);
    in.m = p.m;
    in.n = p.n;
    in.k = p.k;
    in.elements = uint64_t{p.m} * p.n;
    in.src = Space::L0A;
    in.dst = Space::L0C;
    const uint32_t k0 = kBlock / sizeof(A);
    const uint32_t m1 = static_cast<uint32_t>(ceilDiv(p.m, 16)), n1 = static_cast<uint32_t>(ceilDiv(p.n, 16));
    const uint32_t k1 = static_cast<uint32_t>(ceilDiv(p.k, k0));
    for (uint32_t i = 0; i < p.m; ++i) {
      for (uint32_t kb = 0; kb < k1; ++kb) {
        uint64_t e = (uint64_t{i / 16} * k1 + kb) * 16 * k0 + (i % 16) * k0;
        core.read(ins, fm.ref_, e * sizeof(A), std::min(k0, p.k - kb * k0) * sizeof(A), "Mmad fm", loc);
      }
    }
    for (uint32_t j = 0; j < p.n; ++j) {
      for (uint32_t kb = 0; kb < k1; ++kb) {
        uint64_t e = (uint64_t{kb} * n1 + j / 16) * 16 * k0 + (j % 16) * k0;
        core.read(ins, filter.ref_, e * sizeof(B), std::min(k0, p.k - kb * k0) * sizeof(B), "Mmad filter", loc);
      }
    }
    uint64_t outElems = uint64_t{m1} * n1 * 256;
    std::vector<D> c(outElems, D(0));
    const D* cPtr = reinterpret_cast<const D*>(core.ptr(Mem::L0C, dst.ref_.offset));
    if (bias && !p.cmatrixInitVal) {
      const D* bp = reinterpret_cast<const D*>(core.ptr(bias->mem, bias->offset));
      if (bias->mem == Mem::BT) {  // a row vector of n values added to every row
        core.read(ins, *bias, 0, uint64_t{p.n} * sizeof(D), "Mmad bias", loc);
        for (uint64_t i = 0; i < uint64_t{m1} * 16; ++i)
          for (uint64_t j = 0; j < p.n; ++j) c[(j / 16) * m1 * 256 + i * 16 + j % 16] = bp[j];
      } else {  // a whole initial C matrix in L0C
        core.read(ins, *bias, 0, outElems * sizeof(D), "Mmad bias", loc);
        std::copy(bp, bp + outElems, c.begin());
      }
    } else if (!p.cmatrixInitVal || p.isBias) {  // accumulate into what L0C holds
      core.read(ins, dst.ref_, 0, outElems * sizeof(D), "Mmad dst", loc);
      std::copy(cPtr, cPtr + outElems, c.begin());
    }
    const A* a = reinterpret_cast<const A*>(core.ptr(Mem::L0A, fm.ref_.offset));
    const B* b = reinterpret_cast<const B*>(core.ptr(Mem::L0B, filter.ref_.offset));
    for (uint32_t i = 0; i < p.m; ++i) {
      for (uint32_t j = 0; j < p.n; ++j) {
        D& out = c[uint64_t{j / 16} * m1 * 256 + i * 16 + j % 16];
        for (uint32_t kk = 0; kk < p.k; ++kk) {
          A av = a[(uint64_t{i / 16} * k1 + kk / k0) * 16 * k0 + (i % 16) * k0 + kk % k0];
          B bv = b[(uint64_t{kk / k0} * n1 + j / 16) * 16 * k0 + (j % 16) * k0 + kk % k0];
          if constexpr (std::is_same_v<D, int32_t>) {
            out += static_cast<int32_t>(av) * static_cast<int32_t>(bv);
          } else {
            float prod = toFloat(av) * toFloat(bv);
            out += prod;
          }
        }
      }
    }
    core.write(ins, dst.ref_, 0, outElems * sizeof(D), "Mmad dst", loc);
    std::copy(c.begin(), c.end(), reinterpret_cast<D*>(core.ptr(Mem::L0C, dst.ref_.offset)));
  }
}

}  // namespace tcemu

namespace AscendC {

template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal, const Nd2NzParams& intriParams,
                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::nd2nz(dstLocal, srcGlobal, intriParams, loc);
}

template <typename T>
inline void LoadData(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                     const LoadData2DParams& loadDataParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::loadData2d(dstLocal, srcLocal, loadDataParams, loc);
}

template <typename T>
inline void LoadData(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
                     const LoadData2DParams& loadDataParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::loadData2dFromGm(dstLocal, srcGlobal, loadDataParams, loc);
}

template <typename DstT, typename Src0T, typename Src1T>
inline void Mmad(const LocalTensor<DstT>& dstLocal, const LocalTensor<Src0T>& fmLocal,
                 const LocalTensor<Src1T>& filterLocal, const MmadParams& mmadParams,
                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onCubeCore()) return;
  tcemu::mmad(dstLocal, fmLocal, filterLocal, mmadParams, "Mmad", nullptr, loc);
}

// With a bias: from the bias table (C2) a row vector of n values added to every row, or from CO1 a whole initial
// C matrix. As on the device the bias is used only when cmatrixInitVal is false.
template <typename DstT, typename Src0T, typename Src1T, typename BiasT>
inline void Mmad(const LocalTensor<DstT>& dstLocal, const LocalTensor<Src0T>& fmLocal,
                 const LocalTensor<Src1T>& filterLocal, const LocalTensor<BiasT>& biasLocal,
                 const MmadParams& mmadParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onCubeCore()) return;
  if constexpr (!std::is_same_v<DstT, BiasT>) {
    tcemu::fail(loc, "Mmad with a bias needs the bias dtype to match dst (%s), got %s", tcemu::dtypeName<DstT>(),
                tcemu::dtypeName<BiasT>());
  } else {
    tcemu::Core& core = tcemu::cur();
    tcemu::Mem bm = biasLocal.ref_.mem;
    if (bm != tcemu::Mem::BT && bm != tcemu::Mem::L0C) {
      tcemu::fail(loc, "Mmad bias is in %s (%s); it must be in C2 (bias table) or CO1 (L0C)", tcemu::memName(bm),
                  tcemu::positionName(biasLocal.ref_.pos));
    }
    core.checkAlign(biasLocal.ref_, 128, "Mmad bias", loc);
    tcemu::mmad(dstLocal, fmLocal, filterLocal, mmadParams, "Mmad", &biasLocal.ref_, loc);
  }
}

}  // namespace AscendC

// img2col (LoadData3DParamsV2) and LoadDataWithTranspose.
#include "emu/cube_load3d.h"

// Fixpipe (L0C -> GM / L1 with its quantisation modes) builds on the cube path.
#include "emu/fixpipe.h"
