#include "interp/driver.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ostream>

#include "interp/kernel_args.h"
#include "interp/npy.h"
#include "interp/oracle.h"
#include "support/numbers.h"

namespace tilecraft::interp {

namespace {

struct UsageError {
  std::string message;
};

// "NAME=VALUE" -> (NAME, VALUE); `flag` names the option in the message.
std::pair<std::string, std::string> splitAssignment(const std::string& text, const char* flag, const char* example) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw UsageError{fmt::format("{} '{}' is not NAME=VALUE (e.g. {} {})", flag, text, flag, example)};
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

double parseNumber(const std::string& text, const std::string& what) {
  std::optional<double> v = support::parseFiniteDouble(text);
  if (!v) throw UsageError{fmt::format("{}: '{}' is not a number", what, text)};
  return *v;
}

std::string listOr(const std::vector<std::string>& names) {
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

std::string summary(const HostTensor& t) {
  if (t.data.empty()) return "empty";
  auto [lo, hi] = std::minmax_element(t.data.begin(), t.data.end());
  double sum = 0;
  for (double v : t.data) sum += v;
  return fmt::format("min {:.6g} max {:.6g} mean {:.6g}", *lo, *hi, sum / static_cast<double>(t.data.size()));
}

int runChecked(const InterpOptions& options, Files& files, std::ostream& out, std::ostream& err) {
  std::string error;
  auto text = files.read(options.file, &error);
  if (!text) throw UsageError{error};
  auto program = checkProgram(options.file, *text, options.params);
  if (!program->usageError.empty()) throw UsageError{program->usageError};
  if (!program->ok()) {
    err << program->renderDiagnostics();
    return 1;
  }
  const dsl::KernelInfo* kernel = program->kernel(options.kernel);
  if (!kernel) {
    std::vector<std::string> names;
    for (const dsl::KernelInfo& k : program->sema.kernels) names.push_back(k.name);
    throw UsageError{
        options.kernel.empty()
            ? fmt::format("{} has {} kernels; choose one with --kernel ({})", options.file, names.size(), listOr(names))
            : fmt::format("{} has no kernel '{}' (kernels: {})", options.file, options.kernel, listOr(names))};
  }
  KernelArgFlags flags{options.shapes, options.attrs, options.inputs, "--input"};
  std::optional<KernelArgs> args = parseKernelArgs(*program, *kernel, flags, files, &error);
  if (!args) throw UsageError{error};
  std::vector<std::string> loaded;
  for (const dsl::ParamInfo& p : kernel->params) {
    if (p.isTensor && p.loaded) loaded.push_back(p.name);
  }
  std::map<std::string, ValueRange> ranges;
  for (const std::string& s : options.ranges) {
    auto [name, value] = splitAssignment(s, "--range", "x=-1:1");
    if (std::find(loaded.begin(), loaded.end(), name) == loaded.end()) {
      throw UsageError{fmt::format("--range {}: kernel '{}' reads no tensor '{}' (its inputs: {})", s, kernel->name,
                                   name, listOr(loaded))};
    }
    size_t colon = value.find(':', 1);  // LO may start with a minus sign
    if (colon == std::string::npos) throw UsageError{fmt::format("--range {}: the range is LO:HI (e.g. x=-1:1)", s)};
    ValueRange r{parseNumber(value.substr(0, colon), "--range " + s),
                 parseNumber(value.substr(colon + 1), "--range " + s)};
    if (r.hi < r.lo) throw UsageError{fmt::format("--range {}: LO is above HI", s)};
    ranges[name] = r;
  }
  std::map<std::string, HostTensor> given;
  for (auto& [name, input] : args->inputs) given[name] = std::move(input.tensor);
  std::map<std::string, int64_t> dims = args->dims;
  std::map<std::string, double> attrs = args->attrs;

  RunRequest request;
  request.dims = dims;
  request.attrs = attrs;
  request.inputs = makeInputs(*program, *kernel, dims, ranges, options.seed, std::move(given));
  support::DiagnosticEngine diagnostics;
  auto outputs = run(*program, kernel->name, request, diagnostics);
  if (!outputs) {
    err << support::renderText(program->sources, diagnostics.diagnostics());
    return 1;
  }
  // A `(..., M, N)` tensor given in another rank is shown and written in that rank.
  std::map<std::string, std::vector<int64_t>> fileShapes = args->fileShapes;
  auto inFileShape = [&](const std::string& name, HostTensor t) {
    if (auto shape = fileShapes.find(name); shape != fileShapes.end()) t.shape = shape->second;
    return t;
  };
  for (auto& [name, t] : request.inputs) t = inFileShape(name, std::move(t));
  for (auto& [name, t] : *outputs) t = inFileShape(name, std::move(t));
  auto writeTensor = [&](const std::string& name, const HostTensor& t) {
    std::string path = options.outDir + "/" + name;
    if (!files.write(path, encodeNpy(t), &error)) throw UsageError{error};
    return path;
  };
  if (options.saveInputs && !options.outDir.empty()) {
    for (const auto& [name, t] : request.inputs) {
      out << fmt::format("input  {} {} {} -> {}\n", name, describe(t), summary(t), writeTensor(name + ".in.npy", t));
    }
  }
  for (const auto& [name, t] : *outputs) {
    std::string line = fmt::format("output {} {} {}", name, describe(t), summary(t));
    if (!options.outDir.empty()) line += " -> " + writeTensor(name + ".npy", t);
    out << line << "\n";
  }
  return 0;
}

}  // namespace

int runInterp(const InterpOptions& options, Files& files, std::ostream& out, std::ostream& err) {
  try {
    return runChecked(options, files, out, err);
  } catch (const UsageError& e) {
    err << "error: " << e.message << "\n";
    return 2;
  }
}

}  // namespace tilecraft::interp
