// Sorting on the vector unit (CANN 8.1 kernel_operator_proposal_intf.h), as on 910B (dav-c220):
// Sort32, Sort<T, isFullSort>, MrgSort (both forms), GetMrgSortResult, Concat, Extract, GetSortLen, GetSortOffset.
//
// Layout. A sorted element is an 8-byte record: the value in its first sizeof(T) bytes (half: bytes 0-1, bytes
// 2-3 zero; float: bytes 0-3) and its uint32 index in bytes 4-7. So GetSortLen<half>(n) is 4n halves and
// GetSortLen<float>(n) 2n floats, and Extract takes values with GatherMask pattern 3 (half) / 1 (float) and
// indices with pattern 2 on uint32, as CANN does.
// Order. Descending by value. Equal values keep their input order: Sort32 the earlier element first, MrgSort the
// element of the lower-numbered list first (so repeated merging is a stable sort). NaN ranks above every number.
// Sort32 sorts each repeat's 32 elements on its own; Sort<T, true> sorts all repeatTimes * 32 (CANN's Sort32 then
// rounds of 4-way MrgSort through tmpLocal, which ends holding a copy of the result).
// MrgSort merges up to 4 sorted lists (validBit 3, 7 or 15: lists 1-2, 1-3, 1-4) of elementLengths[i] records;
// with repeatTimes > 1 the lists must be four contiguous lists of one length, and repeat r merges the four at
// src1 + r * 4 * length records into dst + r * 4 * length records. With ifExhaustedSuspension the merge stops as
// soon as one list runs out; GetMrgSortResult (and the sortedNum of the template form) returns how many records
// of each list went out.
// Extract moves repeatTimes * 32 values and indices, as documented. (CANN 8.1's half Extract runs its index
// GatherMask over 2 * repeatTimes repeats, i.e. 64 records per repeat; the emulator does not copy that over-read.)
// The 310P/910A proposal instructions (RpSort16, MrgSort4, ProposalConcat, ProposalExtract) do not exist on 910B.
#pragma once

#include <algorithm>
#include <cmath>

#include "emu/datacopy.h"
#include "emu/vec_cast_cmp.h"

namespace AscendC {

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
  MrgSort4Info() {}
  MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
               const uint16_t validBitIn, const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn),
        validBit(validBitIn),
        repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
    for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint8_t repeatTimes = 1;
};

template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() {}
  MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                 const LocalTensor<T>& src4In)
      : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

}  // namespace AscendC

namespace tcemu::sort {

constexpr uint32_t kRecord = 8;      // bytes per sorted element
constexpr uint32_t kPerRepeat = 32;  // elements Sort32 sorts per repeat

struct Record {
  float key;
  uint8_t bytes[kRecord];
};

// a before b in the output: larger first, NaN largest; ties keep the input order (the caller sorts stably).
inline bool before(float a, float b) {
  if (std::isnan(a)) return !std::isnan(b);
  if (std::isnan(b)) return false;
  return a > b;
}

template <typename T>
inline float keyOf(const uint8_t* record) {
  T v;
  std::memcpy(static_cast<void*>(&v), record, sizeof(T));
  return toFloat(v);
}

inline void checkRepeat(const char* api, int32_t repeatTimes, const SrcLoc& loc) {
  if (repeatTimes < 0 || repeatTimes > 255) {
    fail(loc,
         "%s repeatTimes is %d, outside [0, 255]; hint: one call sorts at most 255 x 32 elements; merge the "
         "sorted runs with MrgSort",
         api, repeatTimes);
  }
}

template <typename T>
inline void checkOperand(const AscendC::LocalTensor<T>& t, const char* what, const SrcLoc& loc) {
  vec::checkUb(t, kBlock, what, loc);
}

template <typename T>
inline uint32_t beginVec(Core& core, const char* api, uint32_t repeats, uint64_t elements, const SrcLoc& loc) {
  uint32_t ins = core.begin(Pipe::V, OpClass::Vector, api, loc);
  Instr& in = core.instr(ins);
  in.dtypeBytes = sizeof(T);
  in.repeats = repeats;
  in.elements = elements;
  in.src = Space::UB;
  in.dst = Space::UB;
  return ins;
}

// Sort32 proper: `repeats` runs of 32 (value, index) records, each sorted on its own, or all of them together.
template <typename T>
inline void sortRuns(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     const AscendC::LocalTensor<uint32_t>& index, uint32_t repeats, bool whole, const char* api,
                     const SrcLoc& loc) {
  Core& core = cur();
  const std::string dstName = std::string(api) + " dst", srcName = std::string(api) + " src",
                    indexName = std::string(api) + " index";
  checkOperand(dst, dstName.c_str(), loc);
  checkOperand(src, srcName.c_str(), loc);
  checkOperand(index, indexName.c_str(), loc);
  const uint64_t n = uint64_t{repeats} * kPerRepeat;
  uint32_t ins = beginVec<T>(core, api, repeats, n, loc);
  core.read(ins, src.ref_, 0, n * sizeof(T), srcName.c_str(), loc);
  core.read(ins, index.ref_, 0, n * 4, indexName.c_str(), loc);
  std::vector<Record> recs(n);
  const uint8_t* values = core.ptr(Mem::UB, src.ref_.offset);
  const uint8_t* idx = core.ptr(Mem::UB, index.ref_.offset);
  for (uint64_t i = 0; i < n; ++i) {
    Record& r = recs[i];
    std::memset(r.bytes, 0, kRecord);
    std::memcpy(r.bytes, values + i * sizeof(T), sizeof(T));
    std::memcpy(r.bytes + 4, idx + i * 4, 4);
    r.key = keyOf<T>(r.bytes);
  }
  auto cmp = [](const Record& a, const Record& b) { return before(a.key, b.key); };
  if (whole) {
    std::stable_sort(recs.begin(), recs.end(), cmp);
  } else {
    for (uint64_t r = 0; r < repeats; ++r)
      std::stable_sort(recs.begin() + r * kPerRepeat, recs.begin() + (r + 1) * kPerRepeat, cmp);
  }
  core.write(ins, dst.ref_, 0, n * kRecord, dstName.c_str(), loc);
  uint8_t* out = core.ptr(Mem::UB, dst.ref_.offset);
  for (uint64_t i = 0; i < n; ++i) std::memcpy(out + i * kRecord, recs[i].bytes, kRecord);
}

template <typename T>
inline void mrgSort(const AscendC::LocalTensor<T>& dst, const AscendC::MrgSortSrcList<T>& list,
                    const AscendC::MrgSort4Info& p, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  checkDtype<T, half, float>("MrgSort", loc);
  static const char* const fields[] = {"elementLengths[0]", "elementLengths[1]", "elementLengths[2]",
                                       "elementLengths[3]"};
  for (int i = 0; i < 4; ++i)
    checkRange("MrgSort", fields[i], p.elementLengths[i], 0, 4095, "merge lists of at most 4095 elements", loc);
  if (p.validBit != 3 && p.validBit != 7 && p.validBit != 15) {
    fail(loc, "MrgSort validBit is %u; it must be 3 (lists 1-2), 7 (lists 1-3) or 15 (lists 1-4)",
         static_cast<unsigned>(p.validBit));
  }
  checkRange("MrgSort", "repeatTimes", p.repeatTimes, 1, 255, "merge at least one group of lists", loc);
  const AscendC::LocalTensor<T>* srcs[4] = {&list.src1, &list.src2, &list.src3, &list.src4};
  static const char* const names[] = {"MrgSort src1", "MrgSort src2", "MrgSort src3", "MrgSort src4"};
  const int lists = p.validBit == 3 ? 2 : p.validBit == 7 ? 3 : 4;
  Core& core = cur();
  checkOperand(dst, "MrgSort dst", loc);
  for (int i = 0; i < lists; ++i) checkOperand(*srcs[i], names[i], loc);
  if (p.repeatTimes > 1) {
    uint32_t len = p.elementLengths[0];
    bool same = p.validBit == 15;
    for (int i = 1; i < 4 && same; ++i) same = p.elementLengths[i] == len;
    for (int i = 1; i < 4 && same; ++i)
      same = srcs[i]->ref_.mem == srcs[0]->ref_.mem && srcs[i]->ref_.offset == srcs[0]->ref_.offset + i * len * kRecord;
    if (!same) {
      fail(loc,
           "MrgSort with repeatTimes %u needs validBit 15 and four contiguous lists of one length (src2 = "
           "src1 + elementLengths[0] * 8 bytes, ...); got validBit %u, elementLengths {%u, %u, %u, %u}; hint: use "
           "repeatTimes 1 for lists of different lengths or places",
           static_cast<unsigned>(p.repeatTimes), static_cast<unsigned>(p.validBit), p.elementLengths[0],
           p.elementLengths[1], p.elementLengths[2], p.elementLengths[3]);
    }
  }
  uint64_t total = 0;
  for (int i = 0; i < lists; ++i) total += p.elementLengths[i];
  uint32_t ins = beginVec<T>(core, "MrgSort", static_cast<uint32_t>(ceilDiv(total * p.repeatTimes * kRecord, 256)),
                             total * p.repeatTimes, loc);
  uint64_t groupBytes = uint64_t{4} * p.elementLengths[0] * kRecord;  // repeat stride (repeatTimes > 1 only)
  uint32_t taken[4] = {0, 0, 0, 0};
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    std::vector<std::vector<Record>> in(static_cast<size_t>(lists));
    for (int i = 0; i < lists; ++i) {
      uint64_t off = r * groupBytes, len = uint64_t{p.elementLengths[i]} * kRecord;
      core.read(ins, srcs[i]->ref_, off, len, names[i], loc);
      const uint8_t* s = core.ptr(Mem::UB, srcs[i]->ref_.offset) + off;
      in[static_cast<size_t>(i)].resize(p.elementLengths[i]);
      for (uint32_t e = 0; e < p.elementLengths[i]; ++e) {
        Record& rec = in[static_cast<size_t>(i)][e];
        std::memcpy(rec.bytes, s + uint64_t{e} * kRecord, kRecord);
        rec.key = keyOf<T>(rec.bytes);
      }
    }
    std::vector<Record> out;
    size_t pos[4] = {0, 0, 0, 0};
    for (;;) {
      int best = -1;
      for (int i = 0; i < lists; ++i) {
        if (pos[i] >= in[static_cast<size_t>(i)].size()) continue;
        if (best < 0 || before(in[static_cast<size_t>(i)][pos[i]].key, in[static_cast<size_t>(best)][pos[best]].key))
          best = i;
      }
      if (best < 0) break;
      out.push_back(in[static_cast<size_t>(best)][pos[best]++]);
      if (p.ifExhaustedSuspension && pos[best] == in[static_cast<size_t>(best)].size()) break;
    }
    for (int i = 0; i < lists; ++i) taken[i] = static_cast<uint32_t>(pos[i]);
    uint64_t d = r * groupBytes;
    core.write(ins, dst.ref_, d, out.size() * kRecord, "MrgSort dst", loc);
    uint8_t* o = core.ptr(Mem::UB, dst.ref_.offset) + d;
    for (size_t e = 0; e < out.size(); ++e) std::memcpy(o + e * kRecord, out[e].bytes, kRecord);
  }
  // VMS4_SR: 16 bits per list, of the last repeat.
  core.vms4Sr_ = 0;
  for (int i = 0; i < 4; ++i) core.vms4Sr_ |= uint64_t{taken[i] & 0xFFFFu} << (16 * i);
}

}  // namespace tcemu::sort

namespace AscendC {

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,
                              const LocalTensor<uint32_t>& src1Local, const int32_t repeatTimes,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, float>("Sort32", loc);
  tcemu::sort::checkRepeat("Sort32", repeatTimes, loc);
  tcemu::sort::sortRuns(dstLocal, src0Local, src1Local, static_cast<uint32_t>(repeatTimes), false, "Sort32", loc);
}

template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dstLocal, const LocalTensor<T>& concatLocal,
                            const LocalTensor<uint32_t>& indexLocal, LocalTensor<T>& tmpLocal,
                            const int32_t repeatTimes, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, float>("Sort", loc);
  tcemu::sort::checkRepeat("Sort", repeatTimes, loc);
  uint32_t reps = static_cast<uint32_t>(repeatTimes);
  tcemu::sort::sortRuns(dstLocal, concatLocal, indexLocal, reps, isFullSort, "Sort", loc);
  if constexpr (isFullSort) {
    // CANN merges through tmpLocal and leaves it holding a copy of the result: record that write.
    tcemu::Core& core = tcemu::cur();
    tcemu::sort::checkOperand(tmpLocal, "Sort tmp", loc);
    uint64_t bytes = uint64_t{reps} * tcemu::sort::kPerRepeat * tcemu::sort::kRecord;
    uint32_t ins = tcemu::sort::beginVec<T>(core, "MrgSort", static_cast<uint32_t>(tcemu::ceilDiv(bytes, 256)),
                                            bytes / tcemu::sort::kRecord, loc);
    core.read(ins, dstLocal.ref_, 0, bytes, "Sort dst", loc);
    core.write(ins, tmpLocal.ref_, 0, bytes, "Sort tmp", loc);
    std::memmove(core.ptr(tcemu::Mem::UB, tmpLocal.ref_.offset), core.ptr(tcemu::Mem::UB, dstLocal.ref_.offset), bytes);
  }
}

template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dstLocal, const MrgSortSrcList<T>& srcLocal,
                               const MrgSort4Info& params, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::sort::mrgSort(dstLocal, srcLocal, params, loc);
}

template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T>& dstLocal, const MrgSortSrcList<T>& sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTimes, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, static_cast<uint16_t>(repeatTimes));
  tcemu::sort::mrgSort(dstLocal, sortList, info, loc);
  if (isExhaustedSuspension) {
    for (int i = 0; i < 4; ++i) sortedNum[i] = static_cast<uint32_t>((tcemu::cur().vms4Sr_ >> (16 * i)) & 0xFFFFu);
  }
}

inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::Core& core = tcemu::cur();
  core.beginScalar("GetMrgSortResult", loc);
  mrgSortList1 = static_cast<uint16_t>(core.vms4Sr_);
  mrgSortList2 = static_cast<uint16_t>(core.vms4Sr_ >> 16);
  mrgSortList3 = static_cast<uint16_t>(core.vms4Sr_ >> 32);
  mrgSortList4 = static_cast<uint16_t>(core.vms4Sr_ >> 48);
}

// On 910B the values are sorted in place: Concat only hands srcLocal back as the Sort input.
template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concatLocal, const LocalTensor<T>& srcLocal,
                              const LocalTensor<T>& tmpLocal, const int32_t repeatTimes,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)tmpLocal;
  tcemu::checkDtype<T, half, float>("Concat", loc);
  tcemu::sort::checkRepeat("Concat", repeatTimes, loc);
  concatLocal = srcLocal;
}

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValueLocal, const LocalTensor<uint32_t>& dstIndexLocal,
                               const LocalTensor<T>& sortedLocal, const int32_t repeatTimes,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, float>("Extract", loc);
  tcemu::sort::checkRepeat("Extract", repeatTimes, loc);
  tcemu::Core& core = tcemu::cur();
  tcemu::sort::checkOperand(dstValueLocal, "Extract dstValue", loc);
  tcemu::sort::checkOperand(dstIndexLocal, "Extract dstIndex", loc);
  tcemu::sort::checkOperand(sortedLocal, "Extract sorted", loc);
  const uint64_t n = uint64_t(repeatTimes) * tcemu::sort::kPerRepeat;
  // Two GatherMask passes in CANN (values, then indices): traced as one instruction of both passes' repeats.
  uint32_t ins = tcemu::sort::beginVec<T>(core, "Extract", static_cast<uint32_t>(repeatTimes) * 2, n, loc);
  core.read(ins, sortedLocal.ref_, 0, n * tcemu::sort::kRecord, "Extract sorted", loc);
  core.write(ins, dstValueLocal.ref_, 0, n * sizeof(T), "Extract dstValue", loc);
  core.write(ins, dstIndexLocal.ref_, 0, n * 4, "Extract dstIndex", loc);
  const uint8_t* s = core.ptr(tcemu::Mem::UB, sortedLocal.ref_.offset);
  std::vector<uint8_t> recs(s, s + n * tcemu::sort::kRecord);  // dst may alias the records
  uint8_t* v = core.ptr(tcemu::Mem::UB, dstValueLocal.ref_.offset);
  uint8_t* x = core.ptr(tcemu::Mem::UB, dstIndexLocal.ref_.offset);
  for (uint64_t i = 0; i < n; ++i) {
    std::memcpy(v + i * sizeof(T), recs.data() + i * tcemu::sort::kRecord, sizeof(T));
    std::memcpy(x + i * 4, recs.data() + i * tcemu::sort::kRecord + 4, 4);
  }
  core.rsvdCnt_ = n;  // the index pass is a GatherMask: GetGatherMaskRemainCount reads its count
}

template <typename T>
__aicore__ inline uint32_t GetSortLen(const uint32_t elemCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GetSortLen supports half and float");
  return elemCount * (tcemu::sort::kRecord / sizeof(T));
}

template <typename T>
__aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GetSortOffset supports half and float");
  return elemOffset * (tcemu::sort::kRecord / sizeof(T));
}

// The 310P/910A region-proposal instructions: CANN declares them but reports them unsupported on 910B.
template <typename T>
__aicore__ inline void RpSort16(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t,
                                tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::fail(loc, "RpSort16 is not supported on 910B (dav-c220); hint: use Sort32, or Sort<T, true> for a full sort");
}
template <typename T>
__aicore__ inline void MrgSort4(const LocalTensor<T>&, const MrgSortSrcList<T>&, const MrgSort4Info&,
                                tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::fail(loc, "MrgSort4 is not supported on 910B (dav-c220); hint: use MrgSort with the same arguments");
}
template <typename T>
__aicore__ inline void ProposalConcat(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t, const int32_t,
                                      tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::fail(loc, "ProposalConcat is not supported on 910B (dav-c220); hint: use Concat, which sorts values in place");
}
template <typename T>
__aicore__ inline void ProposalExtract(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t, const int32_t,
                                       tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::fail(loc, "ProposalExtract is not supported on 910B (dav-c220); hint: use Extract");
}

}  // namespace AscendC
