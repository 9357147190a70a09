// LoadData 3-D (img2col, LoadData3DParamsV2) and LoadDataWithTranspose on 910B (dav-c220): L1 -> L0A / L0B on
// MTE1.
//
// img2col, as emulated (docs/emulator.md §4.6). The feature map in L1 is C1 x H x W x C0 (NC1HWC0 of one
// batch, C0 = 32 / sizeof(T) elements, H = l1H, W = l1W, C1 = channelSize / C0): channel c of pixel (h, w) at
// element
// ((c / C0) * H + h) * W * C0 + w * C0 + c % C0. It defines a virtual matrix with one row per output position
// and one column per (c1, kh, kw, c0) in that order (the K order of a FRACTAL_Z conv weight):
//   row m = ho * Wo + wo, Wo = (W + padLeft + padRight - ((filterW - 1) * dilationW + 1)) / strideW + 1
//   col k = ((c1 * filterH + kh) * filterW + kw) * C0 + c0
//   value = fmap(c1 * C0 + c0, ho * strideH - padTop + kh * dilationH, wo * strideW - padLeft + kw *
//   dilationW),
//           or padValue where that pixel lies outside the H x W map; rows past the last output follow the
//           same rule
// padList is {left, right, top, bottom}. The call writes the mExtension x kExtension window starting at
// (mStartPt, kStartPt) into L0A in the Zz layout of cube.h (16 x C0 fractals, row-major over the fractal
// grid). CANN's own Matmul loads an NZ A matrix (K1 x M x C0) with this instruction as a 1 x M map of K
// channels, which pins down the map layout, the K order and C0 for every A2 dtype. Fields whose device
// semantics the headers and docs leave open are rejected with a `not emulated` message.
#pragma once

namespace AscendC {

constexpr uint8_t PAD_SIZE = 4;

enum class FmatrixMode : uint8_t {
  FMATRIX_LEFT = 0,
  FMATRIX_RIGHT = 1,
};

struct IsResetLoad3dConfig {
  constexpr IsResetLoad3dConfig(const bool isSetFMatrixIn, const bool isSetPaddingIn)
      : isSetFMatrix(isSetFMatrixIn), isSetPadding(isSetPaddingIn) {}
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};

inline constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

template <typename T>
struct LoadData3DParamsV2 {
  LoadData3DParamsV2() {}
  LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                     const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                     const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                     const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                     const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn, const bool enTransposeIn,
                     const bool enSmallKIn, const T padValueIn)
      : l1H(l1HIn),
        l1W(l1WIn),
        channelSize(channelSizeIn),
        kExtension(kExtensionIn),
        mExtension(mExtensionIn),
        kStartPt(kStartPtIn),
        mStartPt(mStartPtIn),
        strideW(strideWIn),
        strideH(strideHIn),
        filterW(filterWIn),
        filterH(filterHIn),
        dilationFilterW(dilationFilterWIn),
        dilationFilterH(dilationFilterHIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        padValue(padValueIn) {
    for (int i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
  }
  LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                     const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                     const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                     const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                     const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn, const bool enTransposeIn,
                     const bool enSmallKIn, const T padValueIn, const bool filterSizeWIn, const bool filterSizeHIn,
                     const bool fMatrixCtrlIn)
      : LoadData3DParamsV2(padListIn, l1HIn, l1WIn, channelSizeIn, kExtensionIn, mExtensionIn, kStartPtIn, mStartPtIn,
                           strideWIn, strideHIn, filterWIn, filterHIn, dilationFilterWIn, dilationFilterHIn,
                           enTransposeIn, enSmallKIn, padValueIn) {
    filterSizeW = filterSizeWIn;
    filterSizeH = filterSizeHIn;
    fMatrixCtrl = fMatrixCtrlIn;
  }
  uint8_t padList[PAD_SIZE] = {0, 0, 0, 0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() {}
  LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                            const uint16_t dstGapIn, const uint16_t dstfracGapIn, const uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstfracGapIn),
        addrMode(addrModeIn) {}
  LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                            const uint16_t dstGapIn, const uint16_t dstfracGapIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstfracGapIn) {}
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
};

struct LoadDataRepeatParam {
  LoadDataRepeatParam() {}
  LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn, const uint8_t repeatModeIn)
      : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
  uint8_t reserved = 0;
};

}  // namespace AscendC

namespace tcemu {

using Load3dRegs = Core::Load3dRegs;

inline Load3dRegs& load3dRegs(Core& core) { return core.load3d_; }

inline void checkLoad3dNotEmulated(bool nonDefault, const char* field, const SrcLoc& loc) {
  if (nonDefault) {
    fail(loc, "LoadData with LoadData3DParamsV2: %s is not emulated; hint: leave it at its default", field);
  }
}

template <typename T, bool setFmatrix, bool setPadding>
inline void loadData3dV2(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         const AscendC::LoadData3DParamsV2<T>& p, const SrcLoc& loc) {
  if (!onCubeCore()) return;
  constexpr const char* api = "LoadData with LoadData3DParamsV2";
  constexpr bool a2Type = std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, half> ||
                          std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float> || std::is_same_v<T, int32_t> ||
                          std::is_same_v<T, uint32_t>;
  if constexpr (!a2Type) {
    fail(loc, "%s does not support %s on 910B (A2: uint8_t, int8_t, half, bfloat16_t, float, int32_t, uint32_t)", api,
         dtypeName<T>());
  } else {
    if (src.ref_.mem != Mem::L1) {
      fail(loc, "%s: src is in %s (%s); img2col reads the feature map from L1 (A1/B1)", api, memName(src.ref_.mem),
           positionName(src.ref_.pos));
    }
    if (dst.ref_.mem == Mem::L0B) {
      fail(loc,
           "%s to B2 (L0B) is not emulated: the layout it writes there is not documented; hint: load the "
           "img2col matrix into A2",
           api);
    }
    if (dst.ref_.mem != Mem::L0A) {
      fail(loc, "%s: dst is in %s (%s); img2col writes L0A (A2) or L0B (B2)", api, memName(dst.ref_.mem),
           positionName(dst.ref_.pos));
    }
    checkLoad3dNotEmulated(p.enTranspose, "enTranspose", loc);
    checkLoad3dNotEmulated(p.enSmallK, "enSmallK", loc);
    checkLoad3dNotEmulated(p.fMatrixCtrl, "fMatrixCtrl (the right FMATRIX)", loc);
    checkLoad3dNotEmulated(p.filterSizeW || p.filterSizeH, "filterSizeW/filterSizeH (filters over 255)", loc);
    Core& core = cur();
    Load3dRegs& regs = load3dRegs(core);
    if constexpr (setFmatrix) {
      regs.l1H = p.l1H;
      regs.l1W = p.l1W;
      for (int i = 0; i < 4; ++i) regs.padList[i] = p.padList[i];
    }
    if constexpr (setPadding) {
      regs.paddingBits = 0;
      std::memcpy(&regs.paddingBits, &p.padValue, sizeof(T));
    }
    constexpr uint32_t c0 = kBlock / sizeof(T);
    if (p.channelSize == 0 || p.channelSize % c0 != 0) {
      fail(loc,
           "%s: channelSize %u is not a multiple of %u: the small-channel layouts are not emulated; hint: pad "
           "the channels to a multiple of %u",
           api, unsigned{p.channelSize}, c0, c0);
    }
    struct Field {
      const char* name;
      uint32_t value;
    };
    for (Field f : {Field{"strideW", p.strideW}, Field{"strideH", p.strideH}, Field{"filterW", p.filterW},
                    Field{"filterH", p.filterH}, Field{"dilationFilterW", p.dilationFilterW},
                    Field{"dilationFilterH", p.dilationFilterH}}) {
      if (f.value == 0) fail(loc, "%s: %s is 0; it must be at least 1", api, f.name);
    }
    if (p.mExtension == 0 || p.mExtension % 16 != 0 || p.kExtension == 0 || p.kExtension % c0 != 0 ||
        p.kStartPt % c0 != 0) {
      fail(loc,
           "%s: mExtension %u, kExtension %u, kStartPt %u: only whole 16 x %u fractals of %s are emulated "
           "(mExtension a positive multiple of 16, kExtension a positive multiple of %u, kStartPt a multiple "
           "of "
           "%u); hint: round the window up to whole fractals",
           api, unsigned{p.mExtension}, unsigned{p.kExtension}, unsigned{p.kStartPt}, c0, dtypeName<T>(), c0, c0);
    }
    const uint32_t H = regs.l1H, W = regs.l1W, c1 = p.channelSize / c0;
    const int32_t padL = regs.padList[0], padR = regs.padList[1], padT = regs.padList[2];
    const uint32_t fw = p.filterW, fh = p.filterH;
    const int32_t reachW = (int32_t(fw) - 1) * p.dilationFilterW + 1;
    const int32_t spanW = int32_t(W) + padL + padR;
    if (H == 0 || W == 0 || spanW < reachW) {
      fail(loc,
           "%s: the %ux%u feature map padded left %d / right %d is narrower than the dilated filter (%d "
           "columns); hint: check l1W, padList and filterW",
           api, H, W, padL, padR, reachW);
    }
    const uint32_t wo = static_cast<uint32_t>((spanW - reachW) / p.strideW + 1);
    const uint32_t kTotal = c1 * fh * fw * c0;
    if (uint32_t{p.kStartPt} + p.kExtension > kTotal) {
      fail(loc,
           "%s: kStartPt %u + kExtension %u is past the K of the img2col matrix (channelSize %u x filterH %u "
           "x "
           "filterW %u = %u); hint: load at most %u columns",
           api, unsigned{p.kStartPt}, unsigned{p.kExtension}, unsigned{p.channelSize}, fh, fw, kTotal,
           kTotal > p.kStartPt ? kTotal - p.kStartPt : 0u);
    }
    core.checkAlign(src.ref_, kBlock, "LoadData src", loc);
    core.checkAlign(dst.ref_, 512, "LoadData dst", loc);
    uint32_t ins = core.begin(Pipe::MTE1, OpClass::DmaLocal, "LoadData", loc);
    const uint32_t fracs = (p.mExtension / 16) * (p.kExtension / c0);
    dmaInfo(core, ins, sizeof(T), fracs, 512, nullptr, Space::L1, Space::L0A);
    // Pass 1: which C0-blocks (c1, h, w) of the map the window touches, recorded as reads in address order.
    std::vector<uint8_t> touched(uint64_t{c1} * H * W, 0);
    auto pixel = [&](uint32_t m, uint32_t k, int32_t& h, int32_t& w, uint32_t& cb) {
      uint32_t oh = m / wo, ow = m % wo, kw = (k / c0) % fw, kh = (k / (c0 * fw)) % fh;
      cb = k / (c0 * fw * fh);
      h = int32_t(oh * p.strideH) - padT + int32_t(kh * p.dilationFilterH);
      w = int32_t(ow * p.strideW) - padL + int32_t(kw * p.dilationFilterW);
      return h >= 0 && h < int32_t(H) && w >= 0 && w < int32_t(W);
    };
    for (uint32_t i = 0; i < p.mExtension; ++i) {
      for (uint32_t kb = 0; kb < p.kExtension; kb += c0) {
        int32_t h, w;
        uint32_t cb;
        if (pixel(p.mStartPt + i, p.kStartPt + kb, h, w, cb)) touched[(uint64_t{cb} * H + h) * W + w] = 1;
      }
    }
    for (uint64_t b = 0; b < touched.size();) {
      if (!touched[b]) {
        ++b;
        continue;
      }
      uint64_t e = b;
      while (e < touched.size() && touched[e]) ++e;
      core.read(ins, src.ref_, b * kBlock, (e - b) * kBlock, "LoadData src", loc);
      b = e;
    }
    core.write(ins, dst.ref_, 0, uint64_t{fracs} * 512, "LoadData dst", loc);
    // Pass 2: the values, 16-element C0 runs at a time (a run never straddles a pixel since kStartPt % C0 ==
    // 0).
    const T* fmap = reinterpret_cast<const T*>(core.ptr(Mem::L1, src.ref_.offset));
    T* out = reinterpret_cast<T*>(core.ptr(Mem::L0A, dst.ref_.offset));
    T pad;
    std::memcpy(static_cast<void*>(&pad), &regs.paddingBits, sizeof(T));
    const uint32_t k1 = p.kExtension / c0;
    for (uint32_t i = 0; i < p.mExtension; ++i) {
      for (uint32_t kb = 0; kb < k1; ++kb) {
        int32_t h, w;
        uint32_t cb;
        bool in = pixel(p.mStartPt + i, p.kStartPt + kb * c0, h, w, cb);
        T* o = out + ((uint64_t{i / 16} * k1 + kb) * 16 + i % 16) * c0;
        const T* s = in ? fmap + ((uint64_t{cb} * H + h) * W + w) * c0 : nullptr;
        for (uint32_t c = 0; c < c0; ++c) o[c] = in ? s[c] : pad;
      }
    }
  }
}

// L1 -> L0A / L0B with each 16x16 fractal of a 2-byte type transposed: repeat i reads fractal
// startIndex + i * srcStride and writes it i * (1 + dstGap) fractals into dst (the ifTranspose walk of
// LoadData).
template <typename T>
inline void loadDataWithTranspose(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                  const AscendC::LoadData2dTransposeParams& p, const SrcLoc& loc) {
  if (!onCubeCore()) return;
  constexpr const char* api = "LoadDataWithTranspose";
  if constexpr (sizeof(T) != 2) {
    fail(loc,
         "%s of %s is not emulated (emulated: half, bfloat16_t); hint: for 2-byte types only one 16x16 "
         "fractal "
         "per repeat is modelled",
         api, dtypeName<T>());
  } else {
    checkDtype<T, half, bfloat16_t>(api, loc);
    if (src.ref_.mem != Mem::L1) {
      fail(loc, "%s src is in %s (%s); it reads L1 (A1/B1)", api, memName(src.ref_.mem), positionName(src.ref_.pos));
    }
    if (dst.ref_.mem != Mem::L0A && dst.ref_.mem != Mem::L0B) {
      fail(loc, "%s dst is in %s (%s); it writes L0A (A2) or L0B (B2)", api, memName(dst.ref_.mem),
           positionName(dst.ref_.pos));
    }
    if (p.addrMode != 0) {
      fail(loc, "%s with addrMode %u (decreasing addresses) is not emulated; hint: use addrMode 0", api,
           unsigned{p.addrMode});
    }
    if (p.dstFracGap != 0) {
      fail(loc,
           "%s with dstFracGap %u is not emulated for 2-byte types (one fractal per repeat); hint: use dstGap "
           "to space the repeats",
           api, unsigned{p.dstFracGap});
    }
    Core& core = cur();
    core.checkAlign(src.ref_, kBlock, "LoadData src", loc);
    core.checkAlign(dst.ref_, 512, "LoadData dst", loc);
    uint32_t ins = core.begin(Pipe::MTE1, OpClass::DmaLocal, api, loc);
    dmaInfo(core, ins, sizeof(T), p.repeatTimes, 512, nullptr, Space::L1, spaceOf(dst.ref_.mem));
    for (uint64_t i = 0; i < p.repeatTimes; ++i) {
      uint64_t s = (p.startIndex + i * p.srcStride) * 512;
      uint64_t d = i * (1 + uint64_t{p.dstGap}) * 512;
      copyFractal(core, ins, src.ref_, s, dst.ref_, d, true, loc);
    }
  }
}

}  // namespace tcemu

namespace AscendC {

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = PrimT<T>,
          typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>
inline void LoadData(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                     const LoadData3DParamsV2<U>& loadDataParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::loadData3dV2<T, defaultConfig.isSetFMatrix, defaultConfig.isSetPadding>(dstLocal, srcLocal, loadDataParams,
                                                                                 loc);
}

template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                  const LoadData2dTransposeParams& loadDataParams,
                                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::loadDataWithTranspose(dstLocal, srcLocal, loadDataParams, loc);
}

// The FMATRIX register of LoadData with isSetFMatrix=false. FMATRIX_RIGHT (fMatrixCtrl) is not emulated.
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode,
                       tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onCubeCore()) return;
  if (fmatrixMode != FmatrixMode::FMATRIX_LEFT) {
    tcemu::fail(loc, "SetFmatrix with FMATRIX_RIGHT is not emulated; hint: use FmatrixMode::FMATRIX_LEFT");
  }
  tcemu::Load3dRegs& r = tcemu::load3dRegs(tcemu::cur());
  r.l1H = l1H;
  r.l1W = l1W;
  for (int i = 0; i < 4; ++i) r.padList[i] = padList[i];
}

template <typename T>
inline void SetLoadDataPaddingValue(const T padValue, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onCubeCore()) return;
  if constexpr (sizeof(T) != 1 && sizeof(T) != 2 && sizeof(T) != 4) {
    tcemu::fail(loc,
                "SetLoadDataPaddingValue of %s is not supported: the padding register holds a 1-, 2- or "
                "4-byte value",
                tcemu::dtypeName<T>());
  } else {
    tcemu::Load3dRegs& r = tcemu::load3dRegs(tcemu::cur());
    r.paddingBits = 0;
    std::memcpy(&r.paddingBits, &padValue, sizeof(T));
  }
}

// The repeat and boundary registers of img2col: only their defaults (one repeat, no boundary) are emulated.
inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onCubeCore()) return;
  if (repeatParams.repeatTime > 1 || repeatParams.repeatStride != 0 || repeatParams.repeatMode != 0) {
    tcemu::fail(loc,
                "SetLoadDataRepeat with repeatTime %u, repeatStride %u, repeatMode %u is not emulated; hint: "
                "issue one LoadData per window",
                unsigned{repeatParams.repeatTime}, unsigned{repeatParams.repeatStride},
                unsigned{repeatParams.repeatMode});
  }
}

inline void SetLoadDataBoundary(uint32_t boundaryValue, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onCubeCore()) return;
  if (boundaryValue != 0) {
    tcemu::fail(loc, "SetLoadDataBoundary with boundaryValue %u is not emulated; hint: use 0 (no boundary)",
                boundaryValue);
  }
}

}  // namespace AscendC
