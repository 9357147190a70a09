// Global memory: GmAlloc/GmFree and the registry that bounds every GM access to what GmAlloc allocated.
#pragma once

#include <map>

#include "emu/base.h"

namespace tcemu {

struct GmBlock {
  uintptr_t base = 0;
  uint64_t size = 0;
  uint32_t id = 0;  // 1-based allocation serial: names the buffer in the trace the same way on every run
};

inline uint32_t& gmSerial() {
  static uint32_t serial = 0;
  return serial;
}

inline std::map<uintptr_t, GmBlock>& gmRegistry() {
  static std::map<uintptr_t, GmBlock> blocks;
  return blocks;
}

inline void* gmAlloc(size_t size) {
  // 512-byte alignment matches what the runtime gives device buffers (and makes GM bursts aligned by default).
  size_t padded = roundUp(size == 0 ? 1 : size, 512);
  void* p = std::aligned_alloc(512, padded);
  TCEMU_ASSERT(p != nullptr, "GmAlloc out of host memory");
  std::memset(p, 0, padded);
  gmRegistry()[reinterpret_cast<uintptr_t>(p)] = GmBlock{reinterpret_cast<uintptr_t>(p), size, ++gmSerial()};
  return p;
}

inline void gmFree(void* p) {
  auto& reg = gmRegistry();
  auto it = reg.find(reinterpret_cast<uintptr_t>(p));
  if (it == reg.end()) fail(SrcLoc::current(), "GmFree of %p, which GmAlloc did not return", p);
  reg.erase(it);
  std::free(p);
}

// The allocation holding address a, or null.
inline const GmBlock* gmFind(uintptr_t a) {
  auto& reg = gmRegistry();
  auto it = reg.upper_bound(a);
  if (it == reg.begin()) return nullptr;
  --it;
  return a < it->second.base + std::max<uint64_t>(it->second.size, 1) ? &it->second : nullptr;
}

// Checks [p, p+len) lies inside one GmAlloc allocation.
inline void checkGm(const void* p, uint64_t len, const char* what, const SrcLoc& loc) {
  if (len == 0) return;
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto& reg = gmRegistry();
  auto it = reg.upper_bound(a);
  if (it == reg.begin()) {
    fail(loc,
         "%s accesses global memory at %p, which is not inside any GmAlloc allocation; hint: pass buffers "
         "allocated with AscendC::GmAlloc to the kernel",
         what, p);
  }
  --it;
  const GmBlock& b = it->second;
  if (a + len > b.base + b.size) {
    // The allocation is rounded up to 512 bytes, as the runtime's (and torch_npu's caching allocator's) blocks
    // are: an access inside that block is a fault the device runs through, past it one that reaches other data.
    void (*report)(const SrcLoc&, const char*, ...) =
        a + len <= b.base + roundUp(std::max<uint64_t>(b.size, 1), 512) ? fault : fail;
    if (a >= b.base + b.size) {
      report(loc,
             "%s accesses global memory %llu bytes past the end of a %llu-byte GmAlloc allocation "
             "(bytes [%llu, %llu) of it); hint: check the offset and count against the tensor's size",
             what, static_cast<unsigned long long>(a + len - (b.base + b.size)),
             static_cast<unsigned long long>(b.size), static_cast<unsigned long long>(a - b.base),
             static_cast<unsigned long long>(a - b.base + len));
    } else {
      report(loc,
             "%s reads or writes global memory bytes [%llu, %llu) of a %llu-byte GmAlloc allocation: %llu bytes "
             "out of bounds; hint: check the offset and count against the tensor's size",
             what, static_cast<unsigned long long>(a - b.base), static_cast<unsigned long long>(a - b.base + len),
             static_cast<unsigned long long>(b.size), static_cast<unsigned long long>(a + len - (b.base + b.size)));
    }
  }
}

}  // namespace tcemu
