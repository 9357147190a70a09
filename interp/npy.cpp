#include "interp/npy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cassert>
#include <cstring>
#include <map>
#include <string_view>

#include "interp/numeric.h"
#include "support/numbers.h"

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

// NumPy's complex64 on a little-endian host: two f32, real then imaginary.
constexpr const char* kComplex64Descr = "<c8";

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

// The header dict NumPy writes: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } with any spacing and
// key order. Values are kept as their text; the caller checks each.
std::optional<std::map<std::string, std::string>> parseDict(std::string_view text) {
  std::map<std::string, std::string> dict;
  size_t i = 0;
  auto skipSpace = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
  };
  skipSpace();
  if (i >= text.size() || text[i] != '{') return std::nullopt;
  ++i;
  for (;;) {
    skipSpace();
    if (i < text.size() && text[i] == '}') break;
    if (i >= text.size() || (text[i] != '\'' && text[i] != '"')) return std::nullopt;
    char quote = text[i];
    size_t close = text.find(quote, i + 1);
    if (close == std::string_view::npos) return std::nullopt;
    std::string key(text.substr(i + 1, close - i - 1));
    i = close + 1;
    skipSpace();
    if (i >= text.size() || text[i] != ':') return std::nullopt;
    ++i;
    skipSpace();
    size_t begin = i;
    if (i < text.size() && (text[i] == '\'' || text[i] == '"')) {
      size_t end = text.find(text[i], i + 1);
      if (end == std::string_view::npos) return std::nullopt;
      i = end + 1;
    } else if (i < text.size() && text[i] == '(') {
      size_t end = text.find(')', i);
      if (end == std::string_view::npos) return std::nullopt;
      i = end + 1;
    } else {
      while (i < text.size() && text[i] != ',' && text[i] != '}') ++i;
    }
    std::string value(text.substr(begin, i - begin));
    while (!value.empty() && value.back() == ' ') value.pop_back();
    if (!dict.emplace(std::move(key), std::move(value)).second) return std::nullopt;
    skipSpace();
    if (i < text.size() && text[i] == ',') {
      ++i;
      continue;
    }
    skipSpace();
    if (i < text.size() && text[i] == '}') break;
    return std::nullopt;
  }
  ++i;
  skipSpace();
  if (i != text.size()) return std::nullopt;
  return dict;
}

// "(3, 4)", "(3,)", "()" -> the dims; nullopt for anything else (a negative dim, one past int64, a float).
std::optional<std::vector<int64_t>> parseShapeTuple(std::string_view text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return std::nullopt;
  std::string_view inside = text.substr(1, text.size() - 2);
  std::vector<int64_t> shape;
  size_t i = 0;
  while (i < inside.size()) {
    while (i < inside.size() && inside[i] == ' ') ++i;
    if (i == inside.size()) break;
    size_t end = inside.find(',', i);
    std::string_view item = inside.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    std::optional<int64_t> dim = support::parseInt64(item);
    if (!dim || *dim < 0 || item.front() == '+') return std::nullopt;
    shape.push_back(*dim);
    i = end == std::string_view::npos ? inside.size() : end + 1;
  }
  return shape;
}

}  // namespace

int dtypeBytes(DType dtype) { return entryOf(dtype).bytes; }

const char* npyDescr(DType dtype) { return entryOf(dtype).descr; }

std::string encodeNpy(const HostTensor& tensor, bool complex64) {
  assert(!complex64 || (tensor.dtype == DType::F32 && !tensor.shape.empty() && tensor.shape.back() == 2));
  // A complex64 array's elements are the f32 pairs as they are: only the header drops the pairs' dimension.
  std::vector<int64_t> dims(tensor.shape.begin(), tensor.shape.end() - (complex64 ? 1 : 0));
  std::string shape = dims.size() == 1 ? fmt::format("({},)", dims[0]) : fmt::format("({})", fmt::join(dims, ", "));
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                   complex64 ? kComplex64Descr : npyDescr(tensor.dtype), shape);
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

namespace {

// parseNpyHeader, and for a '<c8' array, when `complex64` is given, the header of its f32 pairs.
std::optional<NpyHeader> parseHeader(const std::string& bytes, std::string* error, uint64_t maxBytes, bool* complex64) {
  if (complex64) *complex64 = false;
  auto fail = [&](std::string message) -> std::optional<NpyHeader> {
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
  if (headerLen > kMaxNpyHeaderBytes) return fail(fmt::format("a .npy header of {} bytes is too long", headerLen));
  if (bytes.size() < offset + headerLen) return fail("truncated .npy header");
  std::string header = bytes.substr(offset, headerLen);
  // The header text is shown in messages: keep it printable (a corrupt file must not garble the terminal).
  std::string shown;
  for (char c : header) shown += c >= 0x20 && c < 0x7F ? c : c == '\n' ? ' ' : '?';
  while (!shown.empty() && shown.back() == ' ') shown.pop_back();
  auto dict = parseDict(header);
  if (!dict || !dict->count("descr") || !dict->count("fortran_order") || !dict->count("shape") || dict->size() != 3) {
    return fail(fmt::format("malformed .npy header: {}", shown));
  }
  std::string descr = dict->at("descr");
  if (descr.size() >= 2 && (descr.front() == '\'' || descr.front() == '"')) descr = descr.substr(1, descr.size() - 2);
  const std::string& order = dict->at("fortran_order");
  if (order == "True") return fail("Fortran-order .npy arrays are not supported (save with a C-contiguous array)");
  if (order != "False") return fail(fmt::format("malformed .npy header: fortran_order is '{}'", order));
  if (descr == "<c16") {
    return fail(fmt::format("complex128 .npy arrays ('<c16') are not supported{}",
                            complex64 ? "; save the array as complex64 ('<c8': .astype(numpy.complex64))" : ""));
  }
  if (descr == kComplex64Descr && !complex64) {
    return fail(
        "complex64 .npy arrays ('<c8') are read only by `tilecraft project run`: no tensor dtype here is complex");
  }
  const DescrEntry complexPairs{kComplex64Descr, DType::F32, 8};
  const DescrEntry* entry = descr == kComplex64Descr ? &complexPairs : nullptr;
  for (const DescrEntry& e : kDescrs) {
    // One-byte types and raw void have no byte order: NumPy writes '|', others may write '<'. bf16 has no NumPy
    // type; a bf16 array saved from NumPy is a uint16 array viewed as 'V2', which np.save writes as '|V2'.
    bool orderless = e.bytes == 1 || e.dtype == DType::BF16;
    if (descr == e.descr || (orderless && descr.size() == 3 && (descr.front() == '<' || descr.front() == '|') &&
                             descr.substr(1) == e.descr + 1)) {
      entry = &e;
    }
  }
  if (!entry) {
    return fail(fmt::format(
        "unsupported .npy dtype '{}' (supported: <f2, <V2 or |V2 (bf16), <f4, |i1, |u1, <i2, <i4, <i8, |b1{})", descr,
        complex64 ? ", <c8 (complex64)" : ""));
  }
  NpyHeader h;
  h.dtype = entry->dtype;
  std::optional<std::vector<int64_t>> shape = parseShapeTuple(dict->at("shape"));
  if (!shape) return fail(fmt::format("malformed .npy header: shape {} is not a tuple of sizes", dict->at("shape")));
  h.shape = std::move(*shape);
  uint64_t count = 1;
  for (int64_t d : h.shape) {
    std::optional<uint64_t> next = support::checkedProduct(count, static_cast<uint64_t>(d), maxBytes);
    if (!next) return fail(fmt::format("the .npy shape {} is too large", dict->at("shape")));
    count = *next;
  }
  std::optional<uint64_t> dataBytes = support::checkedProduct(count, static_cast<uint64_t>(entry->bytes), maxBytes);
  if (!dataBytes) return fail(fmt::format("the .npy shape {} is too large", dict->at("shape")));
  h.dataOffset = offset + headerLen;
  h.dataBytes = *dataBytes;
  if (entry == &complexPairs) {
    h.shape.push_back(2);
    *complex64 = true;
  }
  return h;
}

}  // namespace

std::optional<NpyHeader> parseNpyHeader(const std::string& bytes, std::string* error, uint64_t maxBytes) {
  return parseHeader(bytes, error, maxBytes, nullptr);
}

std::optional<HostTensor> decodeRaw(const std::string& bytes, size_t offset, DType dtype, std::vector<int64_t> shape,
                                    std::string* error) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  size_t count = static_cast<size_t>(t.numel());
  const DescrEntry& entry = entryOf(dtype);
  size_t want = count * static_cast<size_t>(entry.bytes);
  size_t have = bytes.size() >= offset ? bytes.size() - offset : 0;
  if (have != want) {
    *error = fmt::format("a {} array needs {} data bytes but the file has {}", describe(t), want, have);
    return std::nullopt;
  }
  t.data.resize(count);
  const char* p = bytes.data() + offset;
  for (size_t i = 0; i < count; ++i, p += entry.bytes) {
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
          *error = fmt::format("i64 element {} is {}, beyond the +-2^53 the reference holds exactly", i, v);
          return std::nullopt;
        }
        t.data[i] = static_cast<double>(v);
        break;
      }
      case DType::Bool: t.data[i] = getLittle<uint8_t>(p) != 0 ? 1.0 : 0.0; break;
    }
  }
  return t;
}

std::optional<HostTensor> decodeNpy(const std::string& bytes, std::string* error, bool* complex64) {
  std::optional<NpyHeader> header = parseHeader(bytes, error, kMaxNpyDataBytes, complex64);
  if (!header) return std::nullopt;
  size_t have = bytes.size() - header->dataOffset;
  if (complex64 && *complex64 && have != header->dataBytes) {
    // decodeRaw would name the f32 pairs; the file holds complex elements.
    std::vector<int64_t> dims(header->shape.begin(), header->shape.end() - 1);
    *error = fmt::format("a c64[{}] array needs {} data bytes but the file has {}", fmt::join(dims, ", "),
                         header->dataBytes, have);
    return std::nullopt;
  }
  return decodeRaw(bytes, header->dataOffset, header->dtype, header->shape, error);
}

}  // namespace tilecraft::interp
