// The engine of the elementwise high-level APIs added after the first set (hl_glu.h, hl_math.h): one or two source
// tensors mapped element by element into dst, with the caller's sharedTmpBuffer or the pipe's free UB as temporary
// space, and the real library's instruction sequence recorded in the trace (hl_common.h explains the model).
#pragma once

#include "emu/hl_activation.h"

namespace tcemu::hl {

// How one API call is checked and traced. Step bytes of 0 mean "the element type's size" (the library computes in
// T); `castHalf` adds the half -> float and float -> half Casts around the steps when T is half.
struct MapSpec {
  const char* api;
  const char* hostQuery;  // the host function that sizes sharedTmpBuffer
  uint32_t minTmp;        // bytes; 0: the API uses no temporary space
  bool castHalf;
};

// dst[i] = f(src0[i], src1[i]) for i < count (src1 may be null: then f gets src0[i] twice). f maps T values to a
// T value, so integer APIs stay exact; floating ones go through viaFloat().
template <typename T, typename F, size_t N>
inline void mapElements(const MapSpec& spec, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                        const AscendC::LocalTensor<T>* src1, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count,
                        F f, const Step (&steps)[N], const SrcLoc& loc) {
  const char* api = spec.api;
  checkUb(src0.ref_, api, src1 ? "src0" : "src", loc);
  if (src1) checkUb(src1->ref_, api, "src1", loc);
  checkUb(dst.ref_, api, "dst", loc);
  checkCount(src0, count, api, src1 ? "src0" : "src", loc);
  if (src1) checkCount(*src1, count, api, "src1", loc);
  checkCount(dst, count, api, "dst", loc);
  AscendC::LocalTensor<uint8_t> work;
  if (tmp) {
    checkTmp(*tmp, spec.minTmp, api, spec.hostQuery, loc);
    work = *tmp;
  } else if (spec.minTmp > 0) {
    work = stackBuffer(spec.minTmp, api, loc);
  }
  Core& core = cur();
  VecSeq seq{core, loc};
  bool cast = spec.castHalf && sizeof(T) == 2;
  if (cast) seq.add("Cast", 4, count);
  for (const Step& s : steps) seq.add(s.name, s.bytes ? s.bytes : sizeof(T), count);
  if (cast) seq.add("Cast", 4, count);
  if (count == 0) return;
  std::string name = std::string(api) + " ";
  uint64_t bytes = uint64_t{count} * sizeof(T);
  // Element i of dst comes from element i of the sources only: under the poison rule (emu/core.h) an unwritten
  // source element leaves its dst element unwritten.
  const Core::Unwritten rule = core.poisonsUnwritten() ? Core::Unwritten::Poison : Core::Unwritten::Byte;
  std::vector<uint64_t> poisoned;
  if (core.read(seq.firstIdx, src0.ref_, 0, bytes, (name + (src1 ? "src0" : "src")).c_str(), loc, rule))
    core.unwrittenElements(src0.ref_, sizeof(T), count, poisoned);
  if (src1 && core.read(seq.firstIdx, src1->ref_, 0, bytes, (name + "src1").c_str(), loc, rule))
    core.unwrittenElements(src1->ref_, sizeof(T), count, poisoned);
  if (work.ref_.valid) {
    uint32_t workBytes = std::min<uint32_t>(work.GetSize(), elementwiseMaxTmp(count, sizeof(T)));
    core.write(seq.firstIdx, work.ref_, 0, workBytes, (name + "sharedTmpBuffer").c_str(), loc);
    core.read(seq.lastIdx, work.ref_, 0, workBytes, (name + "sharedTmpBuffer").c_str(), loc);
  }
  core.write(seq.lastIdx, dst.ref_, 0, bytes, (name + "dst").c_str(), loc);
  core.unwriteElements(dst.ref_, sizeof(T), poisoned);
  const T* a = src0.GetPhyAddr();
  const T* b = src1 ? src1->GetPhyAddr() : a;
  T* d = dst.GetPhyAddr();
  std::vector<T> out(count);  // the sources may alias dst: read everything first
  for (uint32_t i = 0; i < count; ++i) out[i] = f(a[i], b[i]);
  for (uint32_t i = 0; i < count; ++i) d[i] = out[i];
}

// Adapts a float function of one or two floats to T: half inputs widen exactly, the result is rounded once (RNE).
template <typename T, typename G>
inline auto viaFloat(G g) {
  return [g](T x, T y) { return fromFloat<T>(g(toFloat(x), toFloat(y))); };
}

}  // namespace tcemu::hl
