#include "interp/npy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>

#include "interp/numeric.h"

namespace tilecraft::interp {

namespace {

using dsl::DType;

struct DescrEntry {
  const char* descr;
  DType dtype;
  int bytes;
};
constexpr DescrEntry kDescrs[] = {
    {"<f2", DType::F16, 2}, {"<V2", DType::BF16, 2}, {"<f4", DType::F32, 4},
    {"|i1", DType::I8, 1},  {"|u1", DType::U8, 1},   {"<i2", DType::I16, 2},
    {"<i4", DType::I32, 4}, {"<i8", DType::I64, 8},  {"|b1", DType::Bool, 1},
};

const DescrEntry& entryOf(DType dtype) {
  for (const DescrEntry& e : kDescrs) {
    if (e.dtype == dtype) return e;
  }
  return kDescrs[2];
}

template <typename T>
void putLittle(std::string& out, T value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  // The project builds for little-endian hosts only (x86-64, aarch64), so the memcpy order is the file order.
  out.append(reinterpret_cast<const char*>(bytes), sizeof(T));
}

template <typename T>
T getLittle(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// Finds the quoted value after 'key': in the header dict.
std::optional<std::string> dictValue(const std::string& header, const std::string& key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return std::nullopt;
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) return std::nullopt;
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos) return std::nullopt;
  if (header[start] == '\'') {
    size_t end = header.find('\'', start + 1);
    if (end == std::string::npos) return std::nullopt;
    return header.substr(start + 1, end - start - 1);
  }
  if (header[start] == '(') {
    size_t end = header.find(')', start);
    if (end == std::string::npos) return std::nullopt;
    return header.substr(start + 1, end - start - 1);
  }
  size_t end = header.find_first_of(",}", start);
  return header.substr(start, end - start);
}

}  // namespace

const char* npyDescr(DType dtype) { return entryOf(dtype).descr; }

std::string encodeNpy(const HostTensor& tensor) {
  std::string shape = tensor.shape.size() == 1 ? fmt::format("({},)", tensor.shape[0])
                                               : fmt::format("({})", fmt::join(tensor.shape, ", "));
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", npyDescr(tensor.dtype), shape);
  // Magic (6) + version (2) + length (2) + header + '\n' is padded with spaces to a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  putLittle<uint16_t>(out, static_cast<uint16_t>(header.size()));
  out += header;
  for (double v : tensor.data) {
    switch (tensor.dtype) {
      case DType::F16: putLittle<uint16_t>(out, f16Bits(v)); break;
      case DType::BF16: putLittle<uint16_t>(out, bf16Bits(v)); break;
      case DType::F32: putLittle<float>(out, static_cast<float>(v)); break;
      case DType::I8: putLittle<int8_t>(out, static_cast<int8_t>(v)); break;
      case DType::U8: putLittle<uint8_t>(out, static_cast<uint8_t>(v)); break;
      case DType::I16: putLittle<int16_t>(out, static_cast<int16_t>(v)); break;
      case DType::I32: putLittle<int32_t>(out, static_cast<int32_t>(v)); break;
      case DType::I64: putLittle<int64_t>(out, static_cast<int64_t>(v)); break;
      case DType::Bool: putLittle<uint8_t>(out, v != 0 ? 1 : 0); break;
    }
  }
  return out;
}

std::optional<HostTensor> decodeNpy(const std::string& bytes, std::string* error) {
  auto fail = [&](std::string message) -> std::optional<HostTensor> {
    *error = std::move(message);
    return std::nullopt;
  };
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) return fail("not a .npy file (bad magic)");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen = 0;
  size_t offset = 0;
  if (major == 1) {
    headerLen = getLittle<uint16_t>(bytes.data() + 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return fail("truncated .npy header");
    headerLen = getLittle<uint32_t>(bytes.data() + 8);
    offset = 12;
  } else {
    return fail(fmt::format("unsupported .npy version {}", major));
  }
  if (bytes.size() < offset + headerLen) return fail("truncated .npy header");
  std::string header = bytes.substr(offset, headerLen);
  auto descr = dictValue(header, "descr");
  auto order = dictValue(header, "fortran_order");
  auto shapeText = dictValue(header, "shape");
  if (!descr || !order || !shapeText) return fail(fmt::format("malformed .npy header: {}", header));
  if (*order != "False") return fail("Fortran-order .npy arrays are not supported (save with a C-contiguous array)");
  const DescrEntry* entry = nullptr;
  for (const DescrEntry& e : kDescrs) {
    // One-byte types and raw void have no byte order: NumPy writes '|', others may write '<'. bf16 has no NumPy
    // type; a bf16 array saved from NumPy is a uint16 array viewed as 'V2', which np.save writes as '|V2'.
    bool orderless = e.bytes == 1 || e.dtype == DType::BF16;
    if (*descr == e.descr || (orderless && descr->size() == 3 && (descr->front() == '<' || descr->front() == '|') &&
                              descr->substr(1) == e.descr + 1)) {
      entry = &e;
    }
  }
  if (!entry) {
    return fail(fmt::format(
        "unsupported .npy dtype '{}' (supported: <f2, <V2 or |V2 (bf16), <f4, |i1, |u1, <i2, <i4, <i8, |b1)", *descr));
  }
  HostTensor t;
  t.dtype = entry->dtype;
  std::string dims = *shapeText;
  size_t pos = 0;
  while (pos < dims.size()) {
    size_t start = dims.find_first_of("0123456789", pos);
    if (start == std::string::npos) break;
    size_t end = dims.find_first_not_of("0123456789", start);
    t.shape.push_back(std::stoll(dims.substr(start, end - start)));
    pos = end == std::string::npos ? dims.size() : end;
  }
  size_t count = static_cast<size_t>(t.numel());
  size_t dataStart = offset + headerLen;
  size_t want = count * static_cast<size_t>(entry->bytes);
  if (bytes.size() - dataStart != want) {
    return fail(
        fmt::format("a {} array needs {} data bytes but the file has {}", describe(t), want, bytes.size() - dataStart));
  }
  t.data.resize(count);
  const char* p = bytes.data() + dataStart;
  for (size_t i = 0; i < count; ++i, p += entry->bytes) {
    switch (t.dtype) {
      case DType::F16: t.data[i] = f16FromBits(getLittle<uint16_t>(p)); break;
      case DType::BF16: t.data[i] = bf16FromBits(getLittle<uint16_t>(p)); break;
      case DType::F32: t.data[i] = getLittle<float>(p); break;
      case DType::I8: t.data[i] = getLittle<int8_t>(p); break;
      case DType::U8: t.data[i] = getLittle<uint8_t>(p); break;
      case DType::I16: t.data[i] = getLittle<int16_t>(p); break;
      case DType::I32: t.data[i] = getLittle<int32_t>(p); break;
      case DType::I64: {
        auto v = getLittle<int64_t>(p);
        // Elements are doubles (tensor.h): beyond 2^53 an i64 would silently change.
        if (v > (int64_t{1} << 53) || v < -(int64_t{1} << 53)) {
          return fail(fmt::format("i64 element {} is {}, beyond the +-2^53 the reference holds exactly", i, v));
        }
        t.data[i] = static_cast<double>(v);
        break;
      }
      case DType::Bool: t.data[i] = getLittle<uint8_t>(p) != 0 ? 1.0 : 0.0; break;
    }
  }
  return t;
}

}  // namespace tilecraft::interp
