// Fixpipe on 910B (dav-c220): L0C (CO1) -> GM or L1 (A1/B1/C1) on the FIX pipe, with ReLU and the quantisation
// modes of FixpipeParamsV220::quantPre; also the older DataCopy with DataCopyCO12DstParams (the same move).
//
// Layout. Row-major (NZ->ND, CFG_ROW_MAJOR, GM only): C(i, j) -> dst[i * dstStride + j] for i < mSize, j < nSize.
// NZ (CFG_NZ): 16-column strip s of mSize rows goes to dst + s * dstStride * 32 bytes; a 1-byte dst (int8/uint8)
// has C0 = 32, so two L0C strips fill one 32-column output strip (row i of strip t: 32 bytes at
// t * dstStride * 32 + i * 32). In L0C, strip s starts srcStride * 16 elements in.
// Per value: ReLU (reluEn) first, then the conversion of quantPre:
//   NoQuant           float -> float, int32 -> int32: unchanged
//   F322F16/F322BF16  float -> half/bf16, round to nearest even (overflow to inf, as the converters do)
//   DEQF16/VDEQF16    int32 -> half: value * scale, computed exactly and rounded once to nearest even, saturating
//   QF322B8_PRE/VQF322B8_PRE  float -> int8/uint8, REQ8/VREQ8 int32 -> int8/uint8: value * scale computed
//                     exactly and rounded to nearest even, then + offset, saturated to the dst range
// The quant word (deqScalar, or entry j of the uint64 cbufWorkspace tensor in L1 for the V* per-channel modes,
// channel j = output column j) holds the scale as a float in bits [31:13] (the low 13 mantissa bits are dropped:
// the register keeps 19 bits) and a signed 9-bit offset in bits [45:37]; to pass a float scale, put its bits in
// the low 32 bits (`uint64_t(*reinterpret_cast<uint32_t*>(&scale))`), as CANN's samples do. Bit 46 (sign) is not
// read: the dst dtype decides the saturation range.
// As in CANN, the cbufWorkspace form runs only the per-channel modes: with any other quantPre it moves nothing,
// which the emulator reports.
#pragma once

#include "emu/cube.h"
#include "emu/vec_cast_cmp.h"

namespace tcemu {

inline bool perChannelQuant(QuantMode_t q) { return q == VDEQF16 || q == VQF322B8_PRE || q == VREQ8; }

inline float quantScale(uint64_t word) {
  uint32_t bits = static_cast<uint32_t>(word) & 0xFFFFE000u;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline int32_t quantOffset(uint64_t word) {
  int32_t o = static_cast<int32_t>((word >> 37) & 0x1FF);
  return o >= 256 ? o - 512 : o;
}

// One value through ReLU and the quantisation (see the file comment).
template <typename DstT, typename SrcT>
inline DstT quantize(SrcT v, bool relu, QuantMode_t q, uint64_t word) {
  if (relu && v < SrcT(0)) v = SrcT(0);
  if constexpr (std::is_same_v<DstT, SrcT>) {
    return v;
  } else if constexpr (std::is_same_v<SrcT, float> &&
                       (std::is_same_v<DstT, half> || std::is_same_v<DstT, bfloat16_t>)) {
    return fromFloat<DstT>(v);
  } else if constexpr (std::is_same_v<DstT, half>) {  // int32 -> half
    return vec::convertReal<half>(static_cast<long double>(v) * quantScale(word), AscendC::RoundMode::CAST_RINT);
  } else {  // -> int8 / uint8
    (void)q;
    // Rounded first, then offset: the offset is a zero point added to the quantised integer.
    long double x = std::nearbyint(static_cast<long double>(v) * quantScale(word)) + quantOffset(word);
    return vec::convertReal<DstT>(x, AscendC::RoundMode::CAST_RINT);
  }
}

template <typename DstT, typename SrcT>
constexpr bool fixpipePairOk(bool toL1) {
  constexpr bool f = std::is_same_v<SrcT, float>, i = std::is_same_v<SrcT, int32_t>;
  constexpr bool b8 = std::is_same_v<DstT, int8_t> || std::is_same_v<DstT, uint8_t>;
  bool ok = (f && (std::is_same_v<DstT, half> || std::is_same_v<DstT, bfloat16_t> || b8)) ||
            (i && (std::is_same_v<DstT, half> || b8));
  if (!toL1) ok = ok || (f && std::is_same_v<DstT, float>) || (i && std::is_same_v<DstT, int32_t>);
  return ok;
}

// The quantPre values CANN accepts for a dtype pair, as text for the message, and whether q is one of them.
template <typename DstT, typename SrcT>
inline bool quantFits(QuantMode_t q, const char*& need, const char*& hint) {
  constexpr bool b8 = std::is_same_v<DstT, int8_t> || std::is_same_v<DstT, uint8_t>;
  if constexpr (std::is_same_v<DstT, SrcT>) {
    need = "NoQuant";
    hint = "NoQuant";
    return q == NoQuant;
  } else if constexpr (std::is_same_v<SrcT, float> && std::is_same_v<DstT, half>) {
    need = "F322F16";
    hint = "QuantMode_t::F322F16";
    return q == F322F16;
  } else if constexpr (std::is_same_v<SrcT, float> && std::is_same_v<DstT, bfloat16_t>) {
    need = "F322BF16";
    hint = "QuantMode_t::F322BF16";
    return q == F322BF16;
  } else if constexpr (std::is_same_v<SrcT, float> && b8) {
    need = "QF322B8_PRE or VQF322B8_PRE";
    hint =
        "QuantMode_t::QF322B8_PRE (one scale in deqScalar) or QuantMode_t::VQF322B8_PRE (per-channel scales in "
        "cbufWorkspace)";
    return q == QF322B8_PRE || q == VQF322B8_PRE;
  } else if constexpr (b8) {
    need = "REQ8 or VREQ8";
    hint = "QuantMode_t::REQ8 (one scale in deqScalar) or QuantMode_t::VREQ8 (per-channel scales in cbufWorkspace)";
    return q == REQ8 || q == VREQ8;
  } else {
    need = "DEQF16 or VDEQF16";
    hint =
        "QuantMode_t::DEQF16 (one scale in deqScalar) or QuantMode_t::VDEQF16 (per-channel scales in "
        "cbufWorkspace)";
    return q == DEQF16 || q == VDEQF16;
  }
}

struct FixpipeArgs {
  uint32_t nSize, mSize, srcStride, dstStride;
  QuantMode_t quant;
  uint64_t deqScalar;
  bool relu, rowMajor;
  uint32_t ndNum;
  bool channelSplit;
};

// The whole move. `dstGm` is set for GM, `dstL1` for L1; `workspace` is the per-channel quant tensor or null.
template <typename DstT, typename SrcT>
inline void fixpipe(DstT* dstGm, const AscendC::LocalTensor<DstT>* dstL1, const AscendC::LocalTensor<SrcT>& src,
                    const AscendC::LocalTensor<uint64_t>* workspace, const FixpipeArgs& a, const char* api,
                    const SrcLoc& loc) {
  if (!onCubeCore()) return;
  if (src.ref_.mem != Mem::L0C) {
    fail(loc, "%s src is in %s (%s); it copies out of L0C (CO1)", api, memName(src.ref_.mem),
         positionName(src.ref_.pos));
  }
  const bool toL1 = dstL1 != nullptr;
  if (toL1 && dstL1->ref_.mem != Mem::L1) {
    fail(loc,
         "%s dst is in %s (%s); a local Fixpipe destination is L1 (A1/B1/C1) on 910B; hint: copy to GM with "
         "the GlobalTensor form",
         api, memName(dstL1->ref_.mem), positionName(dstL1->ref_.pos));
  }
  if constexpr (!fixpipePairOk<DstT, SrcT>(false)) {
    fail(loc,
         "%s from %s to %s is not supported on 910B (float copies out to float, half, bfloat16_t, int8_t or "
         "uint8_t; int32_t to int32_t, half, int8_t or uint8_t)",
         api, dtypeName<SrcT>(), dtypeName<DstT>());
  } else {
    if (toL1 && !fixpipePairOk<DstT, SrcT>(true)) {
      fail(loc,
           "%s from %s to %s into L1 is not supported on 910B (to L1: float to half, bfloat16_t, int8_t or "
           "uint8_t; int32_t to half, int8_t or uint8_t)",
           api, dtypeName<SrcT>(), dtypeName<DstT>());
    }
    const char *need = "", *hint = "";
    if (!quantFits<DstT, SrcT>(a.quant, need, hint)) {
      fail(loc, "%s from %s to %s needs quantPre = %s, got quantPre %d; hint: set quantPre to %s", api,
           dtypeName<SrcT>(), dtypeName<DstT>(), need, static_cast<int>(a.quant), hint);
    }
    if (perChannelQuant(a.quant) && !workspace) {
      fail(loc,
           "%s with quantPre %d (per-channel) reads its scales from a cbufWorkspace tensor; hint: call "
           "Fixpipe(dst, src, cbufWorkspace, params) with nSize uint64 quant words in L1",
           api, static_cast<int>(a.quant));
    }
    if (workspace && !perChannelQuant(a.quant)) {
      fail(loc,
           "%s with a cbufWorkspace and quantPre %d moves nothing on 910B: CANN runs only VDEQF16, "
           "VQF322B8_PRE and VREQ8 in this form; hint: call Fixpipe without cbufWorkspace, or use a per-channel "
           "quantPre",
           api, static_cast<int>(a.quant));
    }
    if (a.channelSplit) fail(loc, "%s with isChannelSplit is not emulated", api);
    if (a.ndNum != 1) fail(loc, "%s with ndNum %u is not emulated; hint: issue one call per matrix", api, a.ndNum);
    if (toL1 && a.rowMajor) {
      fail(loc, "%s to L1 (%s) writes NZ only; hint: use Fixpipe<DstT, SrcT, CFG_NZ>", api,
           positionName(dstL1->ref_.pos));
    }
    constexpr uint32_t c0 = sizeof(DstT) == 1 ? 32 : 16;  // output columns per NZ strip
    checkRange(api, "nSize", a.nSize, 1, 4095, "split N into several calls", loc);
    if (a.rowMajor) {
      checkRange(api, "mSize", a.mSize, 1, 8192, "split M into several calls", loc);
    } else {
      if (a.nSize % c0 != 0) {
        fail(loc, "%s in NZ format needs nSize to be a multiple of %u, got %u; hint: round nSize up to %u", api, c0,
             a.nSize, static_cast<unsigned>(roundUp(a.nSize, c0)));
      }
      checkRange(api, "mSize", a.mSize, 1, 65535, "split M into several calls", loc);
    }
    if (a.dstStride == 0) fail(loc, "%s dstStride is 0; it must be at least 1", api);
    Core& core = cur();
    core.checkAlign(src.ref_, 64, "Fixpipe src", loc);
    if (toL1) core.checkAlign(dstL1->ref_, kBlock, "Fixpipe dst", loc);
    if (workspace) {
      if (workspace->ref_.mem != Mem::L1) {
        fail(loc,
             "%s cbufWorkspace is in %s (%s); the per-channel quant tensor must be in L1 (A1/B1/C1); hint: "
             "DataCopy the uint64 quant words from GM to an L1 buffer first",
             api, memName(workspace->ref_.mem), positionName(workspace->ref_.pos));
      }
      core.checkAlign(workspace->ref_, kBlock, "Fixpipe cbufWorkspace", loc);
    }
    uint32_t ins = core.begin(Pipe::FIX, OpClass::Fixpipe, api, loc);
    uint32_t strips = static_cast<uint32_t>(ceilDiv(a.nSize, c0));
    dmaInfo(core, ins, sizeof(DstT), a.rowMajor ? a.mSize : strips,
            a.rowMajor ? uint64_t{a.nSize} * sizeof(DstT) : uint64_t{a.mSize} * c0 * sizeof(DstT), dstGm, Space::L0C,
            toL1 ? Space::L1 : Space::GM);
    core.instr(ins).m = static_cast<uint16_t>(a.mSize);
    core.instr(ins).n = static_cast<uint16_t>(a.nSize);
    for (uint32_t s = 0; s < ceilDiv(a.nSize, 16); ++s)
      core.read(ins, src.ref_, uint64_t{s} * a.srcStride * 16 * sizeof(SrcT), uint64_t{a.mSize} * 16 * sizeof(SrcT),
                "Fixpipe src", loc);
    std::vector<uint64_t> words;
    if (workspace) {
      core.read(ins, workspace->ref_, 0, uint64_t{a.nSize} * 8, "Fixpipe cbufWorkspace", loc);
      words.resize(a.nSize);
      std::memcpy(words.data(), core.ptr(Mem::L1, workspace->ref_.offset), words.size() * 8);
    }
    const SrcT* c = reinterpret_cast<const SrcT*>(core.ptr(Mem::L0C, src.ref_.offset));
    auto value = [&](uint64_t i, uint32_t j) {
      SrcT v = c[uint64_t{j / 16} * a.srcStride * 16 + i * 16 + j % 16];
      return quantize<DstT>(v, a.relu, a.quant, workspace ? words[j] : a.deqScalar);
    };
    // Writes `len` bytes at byte `off` of the destination.
    auto put = [&](uint64_t off, const void* data, uint64_t len) {
      if (toL1) {
        core.write(ins, dstL1->ref_, off, len, "Fixpipe dst", loc);
        std::memcpy(core.ptr(Mem::L1, dstL1->ref_.offset) + off, data, len);
      } else {
        uint8_t* d = reinterpret_cast<uint8_t*>(dstGm) + off;
        checkGm(d, len, "Fixpipe dst", loc);
        core.writeGm(ins, d, len, "Fixpipe dst", loc);
        storeGm(core, d, static_cast<const uint8_t*>(data), len);
      }
    };
    if (a.rowMajor) {
      std::vector<DstT> row(a.nSize);
      for (uint64_t i = 0; i < a.mSize; ++i) {
        for (uint32_t j = 0; j < a.nSize; ++j) row[j] = value(i, j);
        put(i * a.dstStride * sizeof(DstT), row.data(), uint64_t{a.nSize} * sizeof(DstT));
      }
    } else {
      std::vector<DstT> strip(uint64_t{a.mSize} * c0);
      for (uint32_t t = 0; t < strips; ++t) {
        for (uint64_t i = 0; i < a.mSize; ++i)
          for (uint32_t k = 0; k < c0; ++k) strip[i * c0 + k] = value(i, t * c0 + k);
        put(uint64_t{t} * a.dstStride * kBlock, strip.data(), strip.size() * sizeof(DstT));
      }
    }
  }
}

template <typename DstT, typename SrcT>
inline FixpipeArgs fixpipeArgs(const AscendC::FixpipeParamsV220& p, bool rowMajor) {
  return FixpipeArgs{p.nSize,     p.mSize,  p.srcStride, p.dstStride, p.quantPre,
                     p.deqScalar, p.reluEn, rowMajor,    p.ndNum,     p.isChannelSplit};
}

inline void checkLayout(AscendC::CO2Layout format, const SrcLoc& loc) {
  if (format == AscendC::CO2Layout::COLUMN_MAJOR) {
    fail(loc, "Fixpipe with CFG_COLUMN_MAJOR is not supported on 910B; hint: use CFG_ROW_MAJOR or CFG_NZ");
  }
}

}  // namespace tcemu

namespace AscendC {

template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<DstT>& dstGlobal, const LocalTensor<SrcT>& srcLocal,
                    const FixpipeParamsV220& intriParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::checkLayout(config.format, loc);
  tcemu::fixpipe<DstT, SrcT>(dstGlobal.addr_, nullptr, srcLocal, nullptr,
                             tcemu::fixpipeArgs<DstT, SrcT>(intriParams, config.format == CO2Layout::ROW_MAJOR),
                             "Fixpipe", loc);
}

template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, typename BufT = uint64_t,
          typename std::enable_if<std::is_same<BufT, uint64_t>::value, bool>::type = true>
inline void Fixpipe(const GlobalTensor<DstT>& dstGlobal, const LocalTensor<SrcT>& srcLocal,
                    const LocalTensor<BufT>& cbufWorkspace, const FixpipeParamsV220& intriParams,
                    tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::checkLayout(config.format, loc);
  tcemu::fixpipe<DstT, SrcT>(dstGlobal.addr_, nullptr, srcLocal, &cbufWorkspace,
                             tcemu::fixpipeArgs<DstT, SrcT>(intriParams, config.format == CO2Layout::ROW_MAJOR),
                             "Fixpipe", loc);
}

template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<DstT>& dstLocal, const LocalTensor<SrcT>& srcLocal,
                    const FixpipeParamsV220& intriParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::checkLayout(config.format, loc);
  tcemu::fixpipe<DstT, SrcT>(nullptr, &dstLocal, srcLocal, nullptr,
                             tcemu::fixpipeArgs<DstT, SrcT>(intriParams, config.format == CO2Layout::ROW_MAJOR),
                             "Fixpipe", loc);
}

template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, typename BufT = uint64_t,
          typename std::enable_if<std::is_same<BufT, uint64_t>::value, bool>::type = true>
inline void Fixpipe(const LocalTensor<DstT>& dstLocal, const LocalTensor<SrcT>& srcLocal,
                    const LocalTensor<BufT>& cbufWorkspace, const FixpipeParamsV220& intriParams,
                    tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::checkLayout(config.format, loc);
  tcemu::fixpipe<DstT, SrcT>(nullptr, &dstLocal, srcLocal, &cbufWorkspace,
                             tcemu::fixpipeArgs<DstT, SrcT>(intriParams, config.format == CO2Layout::ROW_MAJOR),
                             "Fixpipe", loc);
}

// The older L0C -> GM / L1 path: the same hardware move, NZ->ND when nz2ndEn. Its params carry no quant word
// (a kernel sets the QUANT_PRE register itself), so only the modes without one are emulated here.
inline void checkCo12Quant(QuantMode_t q, const tcemu::SrcLoc& loc) {
  if (q != NoQuant && q != F322F16 && q != F322BF16) {
    tcemu::fail(loc,
                "DataCopy from CO1 with quantPre %d is not emulated: DataCopyCO12DstParams carries no quant "
                "scale; hint: use Fixpipe with FixpipeParamsV220::deqScalar or a cbufWorkspace",
                static_cast<int>(q));
  }
}

template <typename T, typename U>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<U>& srcLocal,
                     const DataCopyCO12DstParams& intriParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  checkCo12Quant(intriParams.quantPre, loc);
  tcemu::FixpipeArgs a{intriParams.nSize,        intriParams.mSize,    intriParams.srcStride,
                       intriParams.dstStride,    intriParams.quantPre, 0,
                       intriParams.reluPre != 0, intriParams.nz2ndEn,  1,
                       intriParams.channelSplit};
  tcemu::fixpipe<T, U>(dstGlobal.addr_, nullptr, srcLocal, nullptr, a, "DataCopy from CO1", loc);
}

template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<U>& srcLocal,
                     const DataCopyCO12DstParams& intriParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  checkCo12Quant(intriParams.quantPre, loc);
  tcemu::FixpipeArgs a{intriParams.nSize,        intriParams.mSize,    intriParams.srcStride,
                       intriParams.dstStride,    intriParams.quantPre, 0,
                       intriParams.reluPre != 0, intriParams.nz2ndEn,  1,
                       intriParams.channelSplit};
  tcemu::fixpipe<T, U>(nullptr, &dstLocal, srcLocal, nullptr, a, "DataCopy from CO1", loc);
}

}  // namespace AscendC
