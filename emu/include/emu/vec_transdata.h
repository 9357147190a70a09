// TransDataTo5HD (NCHW -> NC1HWC0, or the transpose of a matrix of 32-byte blocks) and the CCE intrinsics CANN 8.1
// builds it from on 910B (dav_c220 kernel_operator_vec_transpose_impl.h): the vector address registers VA0..VA7
// (set_va_reg_sb: eight block addresses each) and scatter_vnchwconv_b8/b16/b32, which take the 16 destination
// addresses from a register and the next one (VA0, VA1) and the 16 source addresses likewise (VA2, VA3). Kernels
// call every layer: the API on LocalTensor lists or address lists, CANN's TransDataTo5HDImpl on __ubuf__ pointers,
// and the intrinsics themselves; all end in the one instruction below. Also vtranspose, the intrinsic of the
// 16x16 Transpose.
//
// One repeat reads the 16 source blocks, then writes the 16 destination blocks (so in place is allowed):
// - 16-bit: destination block j holds element j of source blocks 0..15 (a 16x16 transpose);
// - 32-bit: destination blocks 2k and 2k+1 hold element k of source blocks 0..7 and 8..15;
// - 8-bit: byte k of the low half of each source block (srcHighHalf: of the high half) goes, in source order, to
//   the low half (dstHighHalf: the high half) of destination block k.
// Repeat r moves every address on by r * repStride blocks. The mask register plays no part. An address must be
// 32-byte aligned inside a live TQue or TBuf buffer of the UB. Like the other data movements, the written state
// of each byte travels with it, so a transposed tail that was never written is still caught where it is used.
// Not emulated: the uint64_t `config` forms of the intrinsics, the forms mixing a register and a pointer, and the
// TransDataTo5HD form whose address lists are themselves LocalTensor<uint64_t> (vld_va_reg).
#pragma once

#include <cstdio>

#include "emu/vec_gather.h"
#include "emu/vec_intrinsics.h"

namespace AscendC {

// Field names and defaults of CANN 8.1 kernel_struct_transpose.h.
struct TransDataTo5HDParams {
  TransDataTo5HDParams() {}
  TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                       const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn),
        srcHighHalf(srcHighHalfIn),
        repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

}  // namespace AscendC

// stub_fun.h declares the register names at global scope, as kernels spell them.
typedef enum { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 } ub_addr8_t;

namespace tcemu::vec {

// The 16 addresses of a list: register `reg` holds entries 0..7, the next register entries 8..15.
inline void vaList(ub_addr8_t reg, uint64_t out[16], const char* api, const char* role, const SrcLoc& loc) {
  Core& core = cur();
  const int r = static_cast<int>(reg);
  if (r < 0 || r > 6) {
    fail(loc,
         "%s %s register VA%d has no next register for list entries 8..15; hint: pass VA0..VA6 (CANN: VA0 "
         "for dst, VA2 for src)",
         api, role, r);
  }
  for (int k = r; k <= r + 1; ++k) {
    if (!((core.vaSet_ >> k) & 1u)) {
      fail(loc,
           "%s %s list reads VA%d, which no set_va_reg_sb wrote; hint: set VA%d and VA%d to the 16 block "
           "addresses first",
           api, role, k, r, r + 1);
    }
  }
  for (int i = 0; i < 8; ++i) {
    out[i] = core.va_[r][i];
    out[8 + i] = core.va_[r + 1][i];
  }
}

inline void setVa(int reg, const uint64_t* eight) {
  Core& core = cur();
  for (int i = 0; i < 8; ++i) core.va_[reg][i] = eight[i];
  core.vaSet_ = static_cast<uint8_t>(core.vaSet_ | (1u << reg));
}

// Loads VA0/VA1 with the destination list and VA2/VA3 with the source list (CANN's SetVaReg).
inline void setVaLists(const uint64_t dst[16], const uint64_t src[16]) {
  setVa(0, dst);
  setVa(1, dst + 8);
  setVa(2, src);
  setVa(3, src + 8);
}

// One scatter_vnchwconv of `bytes`-byte elements on the lists in VA registers dstReg/dstReg+1 and srcReg/srcReg+1.
inline void vnchwconv(uint32_t bytes, ub_addr8_t dstReg, ub_addr8_t srcReg, uint32_t repeat, uint32_t dstStride,
                      uint32_t srcStride, bool dstHigh, bool srcHigh, const char* api, const SrcLoc& loc) {
  Core& core = cur();
  uint64_t dstAddr[16], srcAddr[16];
  vaList(dstReg, dstAddr, api, "dst", loc);
  vaList(srcReg, srcAddr, api, "src", loc);
  char names[32][64];
  AscendC::LocalTensor<uint8_t> t[32];  // 0..15 src, 16..31 dst
  for (int i = 0; i < 32; ++i) {
    const bool isDst = i >= 16;
    std::snprintf(names[i], sizeof names[i], "%s %s list entry %d", api, isDst ? "dst" : "src", i % 16);
    const uint64_t a = isDst ? dstAddr[i - 16] : srcAddr[i];
    t[i] = ubTensorAt<uint8_t>(reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(a)), names[i], loc);
    core.checkAlign(t[i].ref_, kBlock, names[i], loc);
  }
  const uint32_t ins = core.begin(Pipe::V, OpClass::Vector, api, loc);
  {
    Instr& in = core.instr(ins);
    in.dtypeBytes = static_cast<uint8_t>(bytes);
    in.repeats = repeat;
    in.elements = uint64_t{repeat} * 16 * (bytes == 1 ? 16 : kBlock / bytes);
    in.src = Space::UB;
    in.dst = Space::UB;
  }
  const auto rule = core.poisonsUnwritten() ? Core::Unwritten::Poison : Core::Unwritten::Block;
  WrittenBits& written = core.arena(Mem::UB).written;
  // 8-bit moves half blocks: 16 bytes from each source block, 16 to each destination block.
  const uint32_t part = bytes == 1 ? 16 : kBlock;
  const uint32_t srcHalf = bytes == 1 && srcHigh ? 16 : 0, dstHalf = bytes == 1 && dstHigh ? 16 : 0;
  uint8_t in[16][kBlock], inW[16][kBlock], out[16][kBlock], outW[16][kBlock];
  for (uint32_t r = 0; r < repeat; ++r) {
    for (int i = 0; i < 16; ++i) {
      const uint64_t off = uint64_t{r} * srcStride * kBlock + srcHalf;
      core.read(ins, t[i].ref_, off, part, names[i], loc, rule);
      std::memcpy(in[i], core.ptr(Mem::UB, t[i].ref_.offset) + off, part);
      written.get(t[i].ref_.offset + off, inW[i], part);
    }
    // Destination byte (block, at) <- source byte (i, from).
    auto move = [&](int block, uint32_t at, int i, uint32_t from, uint32_t n) {
      std::memcpy(&out[block][at], &in[i][from], n);
      std::memcpy(&outW[block][at], &inW[i][from], n);
    };
    for (int i = 0; i < 16; ++i) {
      if (bytes == 2) {
        for (int j = 0; j < 16; ++j) move(j, 2 * i, i, 2 * j, 2);
      } else if (bytes == 4) {
        for (int k = 0; k < 8; ++k) move(2 * k + i / 8, 4 * (i % 8), i, 4 * k, 4);
      } else {
        for (int k = 0; k < 16; ++k) move(k, i, i, k, 1);
      }
    }
    for (int j = 0; j < 16; ++j) {
      const uint64_t off = uint64_t{r} * dstStride * kBlock + dstHalf;
      core.write(ins, t[16 + j].ref_, off, part, names[16 + j], loc);
      std::memcpy(core.ptr(Mem::UB, t[16 + j].ref_.offset) + off, out[j], part);
      written.put(t[16 + j].ref_.offset + off, outW[j], part);
    }
  }
}

template <typename T>
inline void transData5hd(const uint64_t dst[16], const uint64_t src[16], const AscendC::TransDataTo5HDParams& p,
                         const char* api, const SrcLoc& loc) {
  checkDtype<T, int8_t, uint8_t, int16_t, uint16_t, half, float, int32_t, uint32_t>(api, loc);
  if (!onVectorCore()) return;
  setVaLists(dst, src);
  vnchwconv(sizeof(T), VA0, VA2, p.repeatTimes, p.dstRepStride, p.srcRepStride, p.dstHighHalf, p.srcHighHalf, api, loc);
}

template <typename T>
inline void addressesOf(T* const list[16], uint64_t out[16]) {
  for (int i = 0; i < 16; ++i) out[i] = reinterpret_cast<uintptr_t>(list[i]);
}

}  // namespace tcemu::vec

namespace AscendC {

template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstLocalList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcLocalList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams,
                                      tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    // A freed or never-allocated tensor is caught here; its address alone would name whoever holds the slot now.
    tcemu::cur().checkAlive(dstLocalList[i].ref_, "TransDataTo5HD dstLocalList entry", loc);
    tcemu::cur().checkAlive(srcLocalList[i].ref_, "TransDataTo5HD srcLocalList entry", loc);
    d[i] = reinterpret_cast<uintptr_t>(dstLocalList[i].GetPhyAddr());
    s[i] = reinterpret_cast<uintptr_t>(srcLocalList[i].GetPhyAddr());
  }
  tcemu::vec::transData5hd<T>(d, s, nchwconvParams, "TransDataTo5HD", loc);
}

template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams,
                                      tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::transData5hd<T>(dstList, srcList, nchwconvParams, "TransDataTo5HD", loc);
}

// CANN's implementation layer, which kernels call on GetPhyAddr() pointers: it loads VA0..VA3 and runs the
// instruction.
template <typename T>
__aicore__ inline void TransDataTo5HDImpl(__ubuf__ T* dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                          __ubuf__ T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                          const TransDataTo5HDParams& transDataTo5HDParams,
                                          tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  uint64_t d[16], s[16];
  tcemu::vec::addressesOf(dstList, d);
  tcemu::vec::addressesOf(srcList, s);
  tcemu::vec::transData5hd<T>(d, s, transDataTo5HDParams, "TransDataTo5HDImpl", loc);
}

template <typename T>
__aicore__ inline void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                          uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                          const TransDataTo5HDParams& transDataTo5HDParams,
                                          tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::transData5hd<T>(dstList, srcList, transDataTo5HDParams, "TransDataTo5HDImpl", loc);
}

}  // namespace AscendC

// The intrinsics, with the forms of CANN 8.1's tikicpulib stub_fun.h.
inline void set_va_reg_sb(ub_addr8_t addr, uint64_t* array, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::cur().beginScalar("set_va_reg_sb", loc);
  tcemu::vec::setVa(static_cast<int>(addr), array);
}

#define TCEMU_VNCHWCONV(NAME, BYTES)                                                                       \
  inline void NAME(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride, uint16_t srcStride, \
                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                         \
    if (!tcemu::onVectorCore()) return;                                                                    \
    tcemu::vec::vnchwconv(BYTES, dst, src, repeat, dstStride, srcStride, false, false, #NAME, loc);        \
  }
TCEMU_VNCHWCONV(scatter_vnchwconv_b16, 2)
TCEMU_VNCHWCONV(scatter_vnchwconv_b32, 4)
#undef TCEMU_VNCHWCONV

inline void scatter_vnchwconv_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride, uint16_t srcStride,
                                 bool dstHighHalf, bool srcHighHalf, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::vnchwconv(1, dst, src, repeat, dstStride, srcStride, dstHighHalf, srcHighHalf, "scatter_vnchwconv_b8",
                        loc);
}

// The 16x16 transpose of 2-byte elements (Transpose's instruction).
inline void vtranspose(__ubuf__ uint16_t* dst, __ubuf__ uint16_t* src, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  AscendC::Transpose(tcemu::ubTensorAt<uint16_t>(dst, "vtranspose dst", loc),
                     tcemu::ubTensorAt<uint16_t>(src, "vtranspose src", loc), loc);
}
