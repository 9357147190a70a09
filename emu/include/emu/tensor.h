// LocalTensor and GlobalTensor with the members of CANN's CPU-debug kernel_tensor.h.
#pragma once

#include <cinttypes>
#include <fstream>

#include "emu/core.h"
#include "emu/fp16.h"
#include "emu/gm.h"

namespace AscendC {

template <typename T>
using PrimT = T;

enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC };

struct ShapeInfo {
  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[8] = {};
  uint32_t originalShape[8] = {};
  DataFormat dataFormat = DataFormat::ND;
  ShapeInfo() = default;
  ShapeInfo(const uint8_t dim, const uint32_t inputShape[], const uint8_t origDim, const uint32_t origShape[],
            const DataFormat format)
      : shapeDim(dim), originalShapeDim(origDim), dataFormat(format) {
    for (int i = 0; i < dim && i < 8; ++i) shape[i] = inputShape[i];
    for (int i = 0; i < origDim && i < 8; ++i) originalShape[i] = origShape[i];
  }
  ShapeInfo(const uint8_t dim, const uint32_t inputShape[], const DataFormat format)
      : ShapeInfo(dim, inputShape, dim, inputShape, format) {}
  ShapeInfo(const uint8_t dim, const uint32_t inputShape[]) : ShapeInfo(dim, inputShape, DataFormat::ND) {}
};

template <typename T>
class LocalTensor;

// Operator sugar (`dst = a + b`) builds one of these; the vector library applies it (emu/vec_symbol.h).
enum class SymbolOp : uint8_t { Add, Sub, Mul, Div, Or, And, LT, GT, EQ, LE, GE, NE };
template <typename T>
struct SymbolOverride {
  const LocalTensor<T>* src0;
  const LocalTensor<T>* src1;
  SymbolOp op;
};

}  // namespace AscendC

namespace tcemu {

// Fails unless T is one of the dtypes an API supports on 910B (ascendc_api.md §7).
template <typename T, typename... Allowed>
inline void checkDtype(const char* api, const SrcLoc& loc) {
  if constexpr (!(std::is_same_v<T, Allowed> || ...)) {
    std::string list;
    ((list += std::string(list.empty() ? "" : ", ") + dtypeName<Allowed>()), ...);
    fail(loc, "%s does not support %s on 910B (supported: %s)", api, dtypeName<T>(), list.c_str());
  }
}

template <typename T, typename U>
void applySymbolOverride(const AscendC::LocalTensor<T>& dst, const AscendC::SymbolOverride<U>& expr);
}  // namespace tcemu

namespace AscendC {

template <typename T>
class LocalTensor {
 public:
  using PrimType = PrimT<T>;

  LocalTensor() = default;

  PrimType* GetPhyAddr() const { return GetPhyAddr(0); }
  PrimType* GetPhyAddr(const uint32_t offset) const {
    return reinterpret_cast<PrimType*>(tcemu::cur().ptr(ref_.mem, ref_.offset)) + offset;
  }

  // Scalar access runs on PIPE_S and reaches only UB.
  PrimType GetValue(const uint32_t index, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) const {
    tcemu::Core& core = tcemu::cur();
    checkScalar("GetValue", index, loc);
    uint32_t ins = core.beginScalar("GetValue", loc);
    core.read(ins, ref_, uint64_t{index} * sizeof(T), sizeof(T), "GetValue", loc);
    PrimType v;
    std::memcpy(&v, GetPhyAddr(index), sizeof(T));
    return v;
  }

  template <typename T1>
  void SetValue(const uint32_t index, const T1 value, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) const {
    tcemu::Core& core = tcemu::cur();
    checkScalar("SetValue", index, loc);
    uint32_t ins = core.beginScalar("SetValue", loc);
    core.write(ins, ref_, uint64_t{index} * sizeof(T), sizeof(T), "SetValue", loc);
    PrimType v = static_cast<PrimType>(value);
    std::memcpy(GetPhyAddr(index), &v, sizeof(T));
  }

  // A reference may be read or written; it is recorded as a scalar write (operators cannot carry a call site).
  PrimType& operator()(const uint32_t index) const {
    tcemu::SrcLoc loc{"<LocalTensor::operator()>", 0};
    tcemu::Core& core = tcemu::cur();
    checkScalar("operator()", index, loc);
    uint32_t ins = core.beginScalar("operator()", loc);
    core.write(ins, ref_, uint64_t{index} * sizeof(T), sizeof(T), "LocalTensor::operator()", loc);
    return *GetPhyAddr(index);
  }

  LocalTensor operator[](const uint32_t offset) const {
    LocalTensor t = *this;
    t.ref_.offset = ref_.offset + offset * static_cast<uint32_t>(sizeof(T));
    t.size_ = offset <= size_ ? size_ - offset : 0;
    return t;
  }

  template <typename CAST_T>
  LocalTensor<CAST_T> ReinterpretCast() const {
    LocalTensor<CAST_T> t;
    t.ref_ = ref_;
    t.size_ = static_cast<uint32_t>(uint64_t{size_} * sizeof(T) / sizeof(CAST_T));
    t.tag_ = tag_;
    return t;
  }

  template <typename T1>
  void SetAddrWithOffset(LocalTensor<T1>& src, uint32_t offset) {
    ref_ = src.ref_;
    ref_.offset = src.ref_.offset + offset * static_cast<uint32_t>(sizeof(T1));
  }

  int32_t GetPosition() const { return static_cast<int32_t>(ref_.pos); }
  void SetSize(const uint32_t size) { size_ = size; }
  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return size_ * static_cast<uint32_t>(sizeof(T)); }
  void SetBufferLen(uint32_t dataLen) { size_ = dataLen / static_cast<uint32_t>(sizeof(T)); }
  void SetUserTag(const TTagType tag) { tag_ = tag; }
  TTagType GetUserTag() const { return tag_; }
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shape_; }

  SymbolOverride<T> operator+(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::Add}; }
  SymbolOverride<T> operator-(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::Sub}; }
  SymbolOverride<T> operator*(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::Mul}; }
  SymbolOverride<T> operator/(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::Div}; }
  SymbolOverride<T> operator|(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::Or}; }
  SymbolOverride<T> operator&(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::And}; }
  SymbolOverride<T> operator<(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::LT}; }
  SymbolOverride<T> operator>(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::GT}; }
  SymbolOverride<T> operator==(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::EQ}; }
  SymbolOverride<T> operator<=(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::LE}; }
  SymbolOverride<T> operator>=(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::GE}; }
  SymbolOverride<T> operator!=(const LocalTensor<T>& o) const { return {this, &o, SymbolOp::NE}; }
  template <typename U>
  void operator=(const SymbolOverride<U>& expr) {
    tcemu::applySymbolOverride(*this, expr);
  }
  LocalTensor& operator=(const LocalTensor&) = default;
  LocalTensor(const LocalTensor&) = default;

  void Print() { Print(size_); }
  void Print(uint32_t len) {
    for (uint32_t i = 0; i < len && i < size_; ++i) {
      PrimType v;
      std::memcpy(&v, GetPhyAddr(i), sizeof(T));
      if constexpr (std::is_floating_point_v<PrimType> || tcemu::isHalfLike<PrimType>) {
        std::printf("%g%s", static_cast<double>(tcemu::toFloat(v)), (i + 1) % 16 == 0 ? "\n" : " ");
      } else {
        std::printf("%lld%s", static_cast<long long>(v), (i + 1) % 16 == 0 ? "\n" : " ");
      }
    }
    std::printf("\n");
  }
  int32_t ToFile(const std::string& fileName) const {
    std::ofstream f(fileName, std::ios::binary);
    f.write(reinterpret_cast<const char*>(GetPhyAddr()), static_cast<std::streamsize>(GetLength()));
    return f ? 0 : -1;
  }

  // Emulator internals, public so that every API implementation can reach them.
  tcemu::TensorRef ref_;
  uint32_t size_ = 0;
  TTagType tag_ = 0;
  ShapeInfo shape_;

 private:
  void checkScalar(const char* what, uint32_t index, const tcemu::SrcLoc& loc) const {
    if (ref_.valid && ref_.mem != tcemu::Mem::UB) {
      tcemu::fail(loc,
                  "%s on a tensor in %s: scalar access reaches only UB (VECIN, VECOUT, VECCALC); hint: copy "
                  "the data to UB first",
                  what, tcemu::memName(ref_.mem));
    }
    (void)index;
  }
};

template <typename T>
class GlobalTensor {
 public:
  using PrimType = PrimT<T>;

  GlobalTensor() = default;
  void SetGlobalBuffer(__gm__ PrimType* buffer, uint64_t bufferSize) {
    addr_ = buffer;
    size_ = bufferSize;
  }
  void SetGlobalBuffer(__gm__ PrimType* buffer) {
    addr_ = buffer;
    size_ = 0;
  }
  const __gm__ PrimType* GetPhyAddr() const { return addr_; }
  __gm__ PrimType* GetPhyAddr(const uint64_t offset) const { return addr_ + offset; }

  PrimType GetValue(const uint64_t offset, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) const {
    tcemu::checkGm(addr_ + offset, sizeof(T), "GlobalTensor::GetValue", loc);
    tcemu::Core& core = tcemu::cur();
    uint32_t ins = core.beginScalar("GlobalTensor::GetValue", loc);
    core.readGm(ins, addr_ + offset, sizeof(T), "GlobalTensor::GetValue", loc);
    return addr_[offset];
  }
  void SetValue(const uint64_t offset, PrimType value, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    tcemu::checkGm(addr_ + offset, sizeof(T), "GlobalTensor::SetValue", loc);
    tcemu::Core& core = tcemu::cur();
    uint32_t ins = core.beginScalar("GlobalTensor::SetValue", loc);
    core.writeGm(ins, addr_ + offset, sizeof(T), "GlobalTensor::SetValue", loc);
    addr_[offset] = value;
  }
  __gm__ PrimType& operator()(const uint64_t offset) const {
    tcemu::checkGm(addr_ + offset, sizeof(T), "GlobalTensor::operator()",
                   tcemu::SrcLoc{"<GlobalTensor::operator()>", 0});
    return addr_[offset];
  }
  uint64_t GetSize() const { return size_; }
  GlobalTensor operator[](const uint64_t offset) const {
    GlobalTensor t = *this;
    t.addr_ = addr_ + offset;
    t.size_ = offset <= size_ ? size_ - offset : 0;
    return t;
  }
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shape_; }
  template <CacheRwMode rwMode = CacheRwMode::RW>
  void SetL2CacheHint(CacheMode mode) {
    cacheMode_ = mode;
    // The device reaches GM around L2 through an address alias; the emulator keeps one GM and tells the
    // performance model through the trace (l2b) which accesses took that path.
    if (tcemu::Core* core = tcemu::currentCore()) {
      uintptr_t lo = reinterpret_cast<uintptr_t>(addr_);
      const tcemu::GmBlock* b = tcemu::gmFind(lo);
      uintptr_t hi = size_ > 0 ? lo + size_ * sizeof(PrimType) : b ? b->base + b->size : lo;
      bool off = mode == CacheMode::CACHE_MODE_DISABLE;
      bool r = rwMode == CacheRwMode::READ || rwMode == CacheRwMode::RW;
      bool w = rwMode == CacheRwMode::WRITE || rwMode == CacheRwMode::RW;
      core->setL2Hint(lo, hi, off && r, off && w);
    }
  }

  // Emulator internals.
  PrimType* addr_ = nullptr;
  uint64_t size_ = 0;
  ShapeInfo shape_;
  CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;
};

}  // namespace AscendC
