// What the bisheng (ccec) device compiler predefines and CANN's operator build relies on, for the kernels
// `tilecraft project run` builds. CANN's CPU-debug headers have none of it, so this is not part of
// kernel_operator.h: a kernel meant for CPU-debug mode must not use these.
#pragma once

#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

using float32_t = float;
using float16_t = half;

// The device build compiles ASSERT to nothing (CANN's CPU-debug mode checks it): answers validated on the NPU have
// ASSERTs whose argument does not compile (an unqualified GetBlockNum()) or that are not even statements
// (`this->n = n ASSERT(n != 0);`).
#undef ASSERT
#define ASSERT(x)

// The device compiler's block queries (what AscendC's GetBlockIdx/GetBlockNum are built on): the block, not the
// vector core within it.
inline int64_t get_block_idx() { return block_idx; }
inline int64_t get_block_num() { return block_num; }
