// Temporary-buffer sizes of the high-level APIs, shared by the kernel-side checks (emu/hl_*.h) and the host queries
// (tiling/hl_tiling.h) so that a size the host returns always passes the kernel's check. Depends on nothing else.
#pragma once

#include "emu/base.h"

namespace tcemu::hl {

// ---- temporary-buffer sizes (bytes); the host functions in tiling/tiling_api.h return the same numbers ------------
//
// Our implementations stage float copies of the data in the temporary buffer. The minimum holds one unit of work
// (a 256-byte repeat for elementwise APIs, one row for SoftMax/LayerNorm/RmsNorm), the maximum the whole input.

// Elementwise activations (Sigmoid, Tanh, Gelu, FasterGelu): float work per element; half needs a float copy too.
inline uint32_t elementwiseLiveNodes(uint32_t typeSize) { return typeSize == 2 ? 2u : 1u; }
inline uint32_t elementwiseMinTmp(uint32_t typeSize) { return elementwiseLiveNodes(typeSize) * 256u; }
inline uint32_t elementwiseMaxTmp(uint64_t count, uint32_t typeSize) {
  uint64_t perNode = roundUp(count * 4, 256);
  if (perNode < 256) perNode = 256;
  return static_cast<uint32_t>(elementwiseLiveNodes(typeSize) * perNode);
}

// Gated activations (SwiGLU, GeGLU, ReGlu): half stages three float copies (both inputs and the result) of one
// 256-byte repeat; float works in dst and needs no temporary space, except ReGlu (one float repeat).
inline uint32_t gluMinTmp(uint32_t typeSize, bool floatNeedsTmp) {
  return typeSize == 2 ? 3u * 256u : (floatNeedsTmp ? 256u : 0u);
}
// Math APIs (Sin, Cos, Erf, Log2, Floor, Round, Trunc, Sign, Power): as the elementwise activations; ClampMax/
// ClampMin keep one compare bit mask of a repeat (256 bytes).
inline uint32_t clampMinTmp() { return 256u; }

// Row-wise APIs: a float row (k rounded to 8 floats = 32 bytes), a second one for half (the cast copy), plus one
// 32-byte block per reduction result kept live (SoftMax: max and sum; norms: mean and variance).
inline uint32_t rowTmpBytes(uint32_t k, uint32_t typeSize) {
  uint32_t rowFloats = static_cast<uint32_t>(roundUp(k, 8));
  return ((typeSize == 2 ? 2u : 1u) * rowFloats + 16u) * 4u;
}
inline uint32_t softmaxMinTmp(uint32_t k, uint32_t typeSize) { return rowTmpBytes(k, typeSize); }
inline uint32_t softmaxMaxTmp(uint32_t m, uint32_t k, uint32_t typeSize) { return m * rowTmpBytes(k, typeSize); }

// SoftmaxGrad/SoftmaxGradFront: CANN's own per-row need in floats (its kernel-side split and its host queries agree
// on it): half stages src, grad and the result as float (3k), two 16-element stat blocks and a 64-float repeat; float
// works in place, with one 8-float block (isFront) or two, and the repeat.
inline uint32_t softmaxGradRowFloats(uint32_t k, uint32_t typeSize, bool isFront) {
  if (typeSize == 2) return 3u * k + 2u * 16u + 64u;
  return k + (isFront ? 8u : 16u) + 64u;
}

// Sum: the first-level per-repeat sums, rounded up to a 32-byte block (the check CANN's Sum makes on its stack buffer).
inline uint32_t sumTmp(uint32_t n, uint32_t typeSize) {
  uint32_t perRep = 256 / typeSize, perBlk = 32 / typeSize;
  return static_cast<uint32_t>(roundUp(ceilDiv(n, perRep), perBlk) * typeSize);
}
// Mean with a wider accumulation type stages the cast row (n floats) before the Sum work.
inline uint32_t meanTmp(uint32_t n, uint32_t srcTypeSize, uint32_t accTypeSize) {
  if (srcTypeSize == accTypeSize) return sumTmp(n, srcTypeSize);
  return static_cast<uint32_t>(roundUp(uint64_t{n} * accTypeSize, 32)) + sumTmp(n, accTypeSize);
}

// Broadcast (CANN's layout of the work): 1-byte types are widened to half, the source and the result staged as half
// (each rounded up to 16 elements); the 2-D broadcast along axis 1 takes a Brcb block of (32 / size)^2 elements per
// group of 32 / size rows, plus, when the last axis is not 32-byte aligned, a copy area of 32 / size rows of the
// aligned row; along axis 0 it takes one 32-byte block of zeros. `rows`/`cols` are dstShape[0]/[1] of the 2-D form.
inline uint32_t broadcastCoreTmp(bool twoDim, uint32_t axis, uint64_t srcSize, uint64_t dstSize, uint32_t rows,
                                 uint32_t cols, uint32_t typeSize, bool allRows) {
  const uint32_t ub = typeSize == 1 ? 2u : typeSize, e = 32u / ub;
  uint64_t bytes = 0;
  if (twoDim && srcSize != dstSize && srcSize != 1) {
    if (axis == 1) {
      uint64_t group = uint64_t{e} * e * ub + (uint64_t{cols} * ub % 32 ? uint64_t{e} * roundUp(cols, e) * ub : 0);
      bytes = allRows ? std::max<uint64_t>(1, ceilDiv(rows, e)) * group : group;
    } else {
      bytes = 32;
    }
  }
  if (typeSize == 1) bytes += roundUp(srcSize, 16) * 2 + roundUp(dstSize, 16) * 2;
  return static_cast<uint32_t>(bytes);
}

// DropOut: one 128-element repeat of the mask widened to half (256 bytes), for float also its float copy (512).
inline uint32_t dropOutMinTmp(uint32_t typeSize) { return 256u + (typeSize == 4 ? 512u : 0u); }

}  // namespace tcemu::hl
