#include "interp/kernel_args.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "interp/npy.h"
#include "support/assert.h"
#include "support/numbers.h"

namespace tilecraft::interp {

namespace {

struct ArgError {
  std::string message;
};

std::string listOr(const std::vector<std::string>& names) {
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::pair<std::string, std::string> split(const std::string& text, const std::string& flag, const char* what,
                                          const char* example) {
  std::optional<std::pair<std::string, std::string>> parts = support::splitAssignment(text);
  if (!parts) throw ArgError{fmt::format("{} '{}' is not {} (e.g. {} {})", flag, text, what, flag, example)};
  return *parts;
}

// A flag naming the same thing twice would silently keep one of the two values.
void checkOnce(std::map<std::string, std::string>& seen, const std::string& flag, const std::string& name,
               const std::string& spec) {
  auto [it, fresh] = seen.emplace(name, spec);
  if (!fresh) {
    throw ArgError{
        fmt::format("{} {}: '{}' is given twice ({} {} and {} {})", flag, spec, name, flag, it->second, flag, spec)};
  }
}

bool allDigits(std::string_view text) {
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(c) != 0; });
}

int64_t parseSize(const std::string& spec, const std::string& value) {
  std::optional<int64_t> size = support::parseInt64(value);
  if (size && *size >= 0) return *size;
  if (!size && allDigits(value) && value.front() != '-') {
    throw ArgError{
        fmt::format("--shape {}: {} is past the largest size, {}", spec, value, std::numeric_limits<int64_t>::max())};
  }
  if (size || allDigits(value) || support::parseFiniteDouble(value)) {
    throw ArgError{fmt::format("--shape {}: a size is a non-negative integer", spec)};
  }
  throw ArgError{fmt::format("--shape {}: '{}' is not a number", spec, value)};
}

double parseAttr(const std::string& spec, const std::string& name, const std::string& value, dsl::DType dtype) {
  if (dtype == dsl::DType::Bool) {
    if (value == "1" || value == "true" || value == "True") return 1;
    if (value == "0" || value == "false" || value == "False") return 0;
    throw ArgError{fmt::format("--attr {}: '{}' is a bool attribute (true or false)", spec, name)};
  }
  if (!dsl::isFloat(dtype)) {
    if (std::optional<int64_t> v = support::parseInt64(value)) {
      // Attributes travel as doubles (RunRequest): beyond 2^53 an integer would silently change.
      if (*v > (int64_t{1} << 53) || *v < -(int64_t{1} << 53)) {
        throw ArgError{
            fmt::format("--attr {}: {} is beyond the +-2^53 an integer attribute holds exactly", spec, value)};
      }
      return static_cast<double>(*v);
    }
    if (support::parseFiniteDouble(value) || allDigits(value)) {
      throw ArgError{
          fmt::format("--attr {}: '{}' is an integer attribute ({}): write a whole number in int64 without "
                      "a decimal point or exponent (got '{}')",
                      spec, name, dsl::dtypeName(dtype), value)};
    }
    throw ArgError{fmt::format("--attr {}: '{}' is not a number", spec, value)};
  }
  if (std::optional<double> v = support::parseFiniteDouble(value)) return *v;
  throw ArgError{fmt::format(
      "--attr {}: '{}' is not {}", spec, value,
      allDigits(value) || value.find_first_of("0123456789") != std::string::npos ? "a finite number" : "a number")};
}

std::string tensorText(dsl::DType dtype, const std::vector<int64_t>& shape) {
  return describe(HostTensor{dtype, shape, {}});
}

// `file` with its leading dimensions folded into the first of `rank` (a `(..., M, N)` tensor's view of it).
std::vector<int64_t> foldLeading(const std::vector<int64_t>& file, size_t rank) {
  size_t fold = file.size() - rank + 1;
  std::vector<int64_t> v = {1};
  for (size_t i = 0; i < fold; ++i) v[0] *= file[i];
  v.insert(v.end(), file.begin() + static_cast<std::ptrdiff_t>(fold), file.end());
  return v;
}

GivenInput readInput(const std::string& flag, const std::string& spec, const std::string& name, const std::string& path,
                     dsl::DType dtype, const std::vector<int64_t>& shape, bool foldsLeading, Files& files) {
  GivenInput in;
  in.path = path;
  uint64_t elements = 1;
  for (int64_t d : shape) elements *= static_cast<uint64_t>(d);  // within kMaxTensorElements: checked before
  uint64_t dataBytes = elements * static_cast<uint64_t>(dtypeBytes(dtype));
  std::string error;
  // Never more than the tensor needs plus the longest .npy header: a huge file or a device is not read whole.
  std::optional<std::string> bytes = files.read(path, &error, dataBytes + kMaxNpyHeaderBytes);
  if (!bytes) throw ArgError{fmt::format("{} {}: {}", flag, spec, error)};
  in.bytes = std::move(*bytes);
  in.npy = in.bytes.compare(0, 6, "\x93NUMPY") == 0;
  std::string expected = tensorText(dtype, shape);
  std::optional<HostTensor> tensor;
  if (in.npy) {
    // Any size the header claims is compared with the tensor (a claim of 10^12 elements is named, not wrapped).
    std::optional<NpyHeader> header = parseNpyHeader(in.bytes, &error, UINT64_MAX);
    if (!header) throw ArgError{fmt::format("{} {}: {}", flag, spec, error)};
    if (foldsLeading && header->dtype == dtype && header->shape != shape) {
      if (header->shape.size() < shape.size()) {
        throw ArgError{
            fmt::format("{} {}: the file holds {} but tensor '{}' ({}) takes rank {} or more (its "
                        "leading dimensions fold into the first)",
                        flag, spec, tensorText(header->dtype, header->shape), name, expected, shape.size())};
      }
      std::vector<int64_t> folded = foldLeading(header->shape, shape.size());
      if (folded != shape) {
        throw ArgError{fmt::format("{} {}: the file holds {}, which folds to {}, but tensor '{}' is {}", flag, spec,
                                   tensorText(header->dtype, header->shape), tensorText(dtype, folded), name,
                                   expected)};
      }
      in.fileShape = header->shape;
    } else if (header->dtype != dtype || header->shape != shape) {
      throw ArgError{fmt::format("{} {}: the file holds {} but tensor '{}' is {}", flag, spec,
                                 tensorText(header->dtype, header->shape), name, expected)};
    }
    tensor = decodeRaw(in.bytes, header->dataOffset, dtype, shape, &error);
  } else {
    if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0) {
      throw ArgError{fmt::format("{} {}: not a .npy file (bad magic)", flag, spec)};
    }
    if (in.bytes.size() != dataBytes) {
      throw ArgError{fmt::format("{} {}: tensor '{}' is {}, {} bytes of raw data, but the file has {}", flag, spec,
                                 name, expected, dataBytes, in.bytes.size())};
    }
    tensor = decodeRaw(in.bytes, 0, dtype, shape, &error);
  }
  if (!tensor) throw ArgError{fmt::format("{} {}: {}", flag, spec, error)};
  in.tensor = std::move(*tensor);
  return in;
}

// A parameter the caller has already found among the kernel's (a name from a structured binding: clang 14, which
// the fuzz build uses, cannot capture one in a lambda).
const dsl::ParamInfo& paramNamed(const dsl::KernelInfo& kernel, const std::string& name) {
  auto it =
      std::find_if(kernel.params.begin(), kernel.params.end(), [&](const dsl::ParamInfo& q) { return q.name == name; });
  TC_ASSERT(it != kernel.params.end(), "no parameter '{}'", name);
  return *it;
}

KernelArgs parseChecked(const CheckedProgram& program, const dsl::KernelInfo& kernel, const KernelArgFlags& flags,
                        Files& files) {
  KernelArgs args;
  std::vector<std::string> dimNames = program.dims();
  std::map<std::string, std::string> seen;
  for (const std::string& s : flags.shapes) {
    auto [name, value] = split(s, "--shape", "NAME=VALUE", "N=1000");
    if (!contains(dimNames, name)) {
      throw ArgError{fmt::format("--shape {}: the program has no dim '{}' (its dims: {})", s, name, listOr(dimNames))};
    }
    checkOnce(seen, "--shape", name, s);
    args.dims[name] = parseSize(s, value);
  }
  std::vector<std::string> missing;
  for (const std::string& d : dimNames) {
    if (!args.dims.count(d)) missing.push_back(d + "=N");
  }
  if (!missing.empty()) throw ArgError{fmt::format("missing sizes: pass --shape {}", fmt::join(missing, " --shape "))};

  // Every tensor must fit before any is made: a size past memory is a usage error, not a crash in the allocator.
  std::vector<std::string> attrNames, loaded, stored;
  for (const dsl::ParamInfo& p : kernel.params) {
    if (!p.isTensor) {
      attrNames.push_back(p.name);
      continue;
    }
    if (p.loaded) loaded.push_back(p.name);
    if (p.stored && !p.loaded) stored.push_back(p.name);
    std::optional<std::vector<int64_t>> shape = paramShape(program, p, args.dims);
    if (!shape) continue;  // a dim the module does not declare: the checker reports it
    uint64_t elements = 1;
    bool fits = true;
    for (int64_t d : *shape) {
      std::optional<uint64_t> next =
          support::checkedProduct(elements, static_cast<uint64_t>(d), static_cast<uint64_t>(kMaxTensorElements));
      fits = fits && next.has_value();
      if (next) elements = *next;
    }
    if (!fits) {
      throw ArgError{fmt::format("tensor '{}' would be {}: more than the {} elements a tensor may have", p.name,
                                 tensorText(p.type.dtype, *shape), kMaxTensorElements)};
    }
    args.paramShapes[p.name] = *shape;
  }

  seen.clear();
  for (const std::string& s : flags.attrs) {
    auto [name, value] = split(s, "--attr", "NAME=VALUE", "alpha=0.5");
    if (!contains(attrNames, name)) {
      throw ArgError{fmt::format("--attr {}: kernel '{}' has no attribute '{}' (its attributes: {})", s, kernel.name,
                                 name, listOr(attrNames))};
    }
    checkOnce(seen, "--attr", name, s);
    const dsl::ParamInfo& p = paramNamed(kernel, name);
    args.attrs[name] = parseAttr(s, name, value, p.type.dtype);
    args.attrTexts[name] = value;
  }

  seen.clear();
  for (const std::string& s : flags.inputs) {
    auto [name, path] = split(s, flags.inputFlag, "NAME=FILE", "x=x.npy");
    if (contains(stored, name)) {
      throw ArgError{fmt::format("{} {}: '{}' is an output of kernel '{}', not an input (its inputs: {})",
                                 flags.inputFlag, s, name, kernel.name, listOr(loaded))};
    }
    if (!contains(loaded, name)) {
      throw ArgError{fmt::format("{} {}: kernel '{}' reads no tensor '{}' (its inputs: {})", flags.inputFlag, s,
                                 kernel.name, name, listOr(loaded))};
    }
    checkOnce(seen, flags.inputFlag, name, s);
    const dsl::ParamInfo& p = paramNamed(kernel, name);
    args.inputs[name] =
        readInput(flags.inputFlag, s, name, path, p.type.dtype, args.paramShapes.at(name), p.foldsLeading, files);
    if (!args.inputs[name].fileShape.empty()) args.fileShapes[name] = args.inputs[name].fileShape;
  }
  // An output folded like an input is written in that input's shape (the first such input, by name).
  for (const dsl::ParamInfo& p : kernel.params) {
    if (!p.isTensor || !p.foldsLeading || !p.stored || args.fileShapes.count(p.name)) continue;
    for (const auto& [input, given] : args.inputs) {
      if (given.fileShape.empty() || !args.paramShapes.count(p.name)) continue;
      if (args.paramShapes.at(input) == args.paramShapes.at(p.name)) {
        args.fileShapes[p.name] = given.fileShape;
        break;
      }
    }
  }
  return args;
}

}  // namespace

std::optional<KernelArgs> parseKernelArgs(const CheckedProgram& program, const dsl::KernelInfo& kernel,
                                          const KernelArgFlags& flags, Files& files, std::string* error) {
  try {
    return parseChecked(program, kernel, flags, files);
  } catch (const ArgError& e) {
    *error = e.message;
    return std::nullopt;
  }
}

}  // namespace tilecraft::interp
