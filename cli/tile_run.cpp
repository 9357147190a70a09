#include "cli/tile_run.h"

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <system_error>
#include <variant>

#include <fmt/format.h>

#include "cli/emu_run.h"
#include "cli/flags.h"
#include "cli/tile_locations.h"
#include "codegen/driver.h"
#include "interp/files.h"
#include "interp/kernel_args.h"
#include "interp/npy.h"
#include "interp/oracle.h"
#include "perf/error.h"
#include "perf/timeline_command.h"
#include "support/assert.h"
#include "support/files.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

fs::path workFolder(const std::string& keepDir, bool& temporary) {
  temporary = keepDir.empty();
  if (!temporary) return fs::absolute(keepDir);  // prepareOutputFolder made it
  std::string pattern = (fs::temp_directory_path() / "tilecraft-run-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "cannot create a temporary folder");
  }
  return pattern;
}

void printOutcome(std::ostream& out, const std::string& name, const FileOutcome& outcome) {
  std::istringstream lines(outcome.programOut);
  for (std::string line; std::getline(lines, line);) out << "    " << line << '\n';
  out << (outcome.passed ? "PASS " : "FAIL ") << name << ": " << outcome.summary << '\n';
  for (const std::string& d : outcome.details) out << "    " << d << '\n';
}

// The program as the reference sees it, the checked arguments and the run's inputs (and, checking, the reference
// outputs): the oracle case of `fuzz --emulate`.
struct Prepared {
  std::unique_ptr<interp::CheckedProgram> program;
  interp::KernelArgs args;
  interp::OracleCase oracle;
};

// --range LO,HI for every generated input, as the launcher's own generator reads it: integers in [ceil(LO),
// floor(HI)], unsigned ones from 0; masks stay 0/1.
std::map<std::string, interp::ValueRange> inputRanges(const std::string& range, const dsl::KernelInfo& kernel) {
  std::map<std::string, interp::ValueRange> ranges;
  if (range.empty()) return ranges;
  size_t comma = range.find(',');
  interp::ValueRange r{std::strtod(range.c_str(), nullptr), std::strtod(range.c_str() + comma + 1, nullptr)};
  for (const dsl::ParamInfo& p : kernel.params) {
    if (!p.isTensor || p.type.dtype == dsl::DType::Bool) continue;
    interp::ValueRange mine = r;
    if (p.type.dtype == dsl::DType::U8) mine.lo = std::max(mine.lo, 0.0);
    ranges[p.name] = mine;
  }
  return ranges;
}

// The kernel's arguments checked against the program on this side, before anything is built: the launcher in the
// sandbox would take a size past int64 as its largest value, a folder or /dev/zero as an input, a .npy of the
// wrong shape as a byte count that happens to match. Relative --in paths are read from the caller's folder. The
// inputs the user did not give are generated here (the values `tilecraft interp --seed S` makes), so that the
// reference and the kernel read the same bytes. Returns the exit status on failure: 2 for arguments, 1 for a
// run-time error of the reference (its diagnostics at the .tile line).
std::variant<Prepared, int> prepare(const TileRunOptions& options, const std::string& kernelName, std::ostream& err) {
  interp::DiskFiles files;
  std::string error;
  std::optional<std::string> text = files.read(options.file, &error);
  if (!text) {
    err << "error: " << error << '\n';
    return 2;
  }
  Prepared p;
  p.program = interp::checkProgram(options.file, *text, options.params);
  const dsl::KernelInfo* kernel = p.program->ok() ? p.program->kernel(kernelName) : nullptr;
  TC_ASSERT(kernel != nullptr, "the program compiled, so it checks");
  interp::KernelArgFlags flags{options.shapes, options.attrs, options.inputs, "--in"};
  std::optional<interp::KernelArgs> args = interp::parseKernelArgs(*p.program, *kernel, flags, files, &error);
  if (!args) {
    err << "error: " << error << '\n';
    return 2;
  }
  p.args = std::move(*args);
  std::map<std::string, interp::HostTensor> given;
  for (const auto& [name, input] : p.args.inputs) given[name] = input.tensor;
  interp::RunRequest& request = p.oracle.request;
  request.dims = p.args.dims;
  request.attrs = p.args.attrs;
  request.inputs = interp::makeInputs(*p.program, *kernel, request.dims, inputRanges(options.range, *kernel),
                                      options.seed, std::move(given));
  if (!options.check) return p;
  support::DiagnosticEngine diagnostics;
  std::optional<interp::RunOutputs> expected = interp::run(*p.program, kernelName, request, diagnostics);
  if (!expected) {
    // In the format of the compiler's diagnostics (--diagnostics), which the reference's are.
    err << (options.diagnostics == "json" ? support::renderJson(p.program->sources, diagnostics.diagnostics())
                                          : support::renderText(p.program->sources, diagnostics.diagnostics()));
    err << "error: the reference interpreter cannot run the kernel on these inputs, so there is nothing to "
           "compare with\nhint: fix the error above, or pass --no-check to run the kernel alone\n";
    return 1;
  }
  p.oracle.expected = std::move(*expected);
  for (const auto& [name, tensor] : p.oracle.expected) {
    p.oracle.tolerances[name] = interp::Tolerance::forDType(tensor.dtype);
  }
  return p;
}

// The launcher's arguments from checked values: sizes in their canonical spelling, every input (given or
// generated) as a .npy file written into the run's own folder (so the sandbox needs no view of the caller's
// files, and what it reads is what was checked and what the reference read).
std::optional<std::vector<std::string>> launcherArguments(const TileRunOptions& options, const Prepared& prepared,
                                                          const fs::path& dir, std::ostream& err) {
  std::vector<std::string> out = {"--show", std::to_string(options.show)};
  for (const auto& [name, size] : prepared.args.dims) out.push_back(fmt::format("{}={}", name, size));
  for (const auto& [name, text] : prepared.args.attrTexts) out.push_back(name + "=" + text);
  for (const auto& [name, tensor] : prepared.oracle.request.inputs) {
    fs::path file = dir / "inputs" / (name + ".npy");
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    std::string error;
    if (!support::writeFileAtomically(file, interp::encodeNpy(tensor), &error)) {
      err << "error: " << error << '\n';
      return std::nullopt;
    }
    out.insert(out.end(), {"--in", name + "=" + file.string()});
  }
  return out;
}

// Copies the run's outputs into --out-dir, each file through a temporary and a rename: a failure leaves the
// folder's old files whole. "" or the message.
// `fileShapes`: the outputs of `(..., M, N)` tensors given in another rank, written in that rank.
std::string copyOutputs(const fs::path& from, const fs::path& to,
                        const std::map<std::string, std::vector<int64_t>>& fileShapes) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(from, ec)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::optional<std::string> bytes = support::readFile(file);
    std::string error;
    fs::path target = to / file.filename();
    if (!bytes) return fmt::format("cannot read the output '{}'", file.filename().string());
    if (auto shape = fileShapes.find(file.stem().string()); shape != fileShapes.end()) {
      std::optional<interp::HostTensor> t = interp::decodeNpy(*bytes, &error);
      if (!t) return fmt::format("output '{}': {}", file.filename().string(), error);
      t->shape = shape->second;
      bytes = interp::encodeNpy(*t);
    }
    if (!support::writeFileAtomically(target, *bytes, &error)) return error;
  }
  return "";
}

std::string number(double v) { return fmt::format("{:.6g}", v); }

// "f16: rel error below 0.00977 per element, mean below 0.000977" or "exact".
std::string toleranceText(const interp::HostTensor& reference, interp::Tolerance tolerance) {
  if (tolerance.tau == 0) return fmt::format("{}: exact", dsl::dtypeName(reference.dtype));
  return fmt::format("{}: rel error below {} per element, mean below {}", dsl::dtypeName(reference.dtype),
                     number(10 * tolerance.tau), number(tolerance.tau));
}

// The outputs of a passing run against the reference's: a failure names each wrong output with its count of wrong
// elements, its largest errors and its first wrong positions with both values.
FileOutcome compareWithReference(const Prepared& prepared, const fs::path& outputs, FileOutcome ran) {
  auto read = [&](const std::string& name) { return support::readFile(outputs / (name + ".npy")); };
  std::vector<interp::OutputCheck> checks = interp::checkOutputs(prepared.oracle, read);
  std::vector<std::string> wrong, lines;
  for (const interp::OutputCheck& c : checks) {
    const interp::HostTensor& reference = prepared.oracle.expected.at(c.name);
    const interp::CompareResult& r = c.result;
    if (c.pass()) {
      lines.push_back(fmt::format("{}: matches the reference ({} elements, max abs error {}, max rel error {}; {})",
                                  c.name, r.elements, number(r.maxAbsError), number(r.maxRelError),
                                  toleranceText(reference, prepared.oracle.tolerances.at(c.name))));
      continue;
    }
    if (!c.error.empty() || r.worstIndex < 0) {  // unreadable, or not the reference's dtype and shape
      wrong.push_back(c.summary());
      continue;
    }
    std::string head = fmt::format("{}: {} of {} elements wrong, max abs error {}, max rel error {}", c.name,
                                   r.mismatches, r.elements, number(r.maxAbsError), number(r.maxRelError));
    if (r.mismatches == 0) head += fmt::format(", but mean rel error {}", number(r.meanRelError));
    wrong.push_back(head);
    lines.push_back(
        fmt::format("{}: tolerance {}", c.name, toleranceText(reference, prepared.oracle.tolerances.at(c.name))));
    for (const interp::WrongElement& e : r.firstWrong) {
      lines.push_back(fmt::format("{}{}: got {}, want {}", c.name, interp::positionText(reference.shape, e.index),
                                  number(e.got), number(e.want)));
    }
    if (static_cast<size_t>(r.mismatches) > r.firstWrong.size()) {
      lines.push_back(
          fmt::format("({} more wrong in {})", static_cast<size_t>(r.mismatches) - r.firstWrong.size(), c.name));
    }
  }
  if (wrong.empty()) {
    ran.summary += "; the outputs match the reference";
    ran.details.insert(ran.details.begin(), lines.begin(), lines.end());
    return ran;
  }
  FileOutcome failed;
  failed.programOut = ran.programOut;
  failed.summary = fmt::format("{} from the reference: {}", wrong.size() == 1 ? "an output differs" : "outputs differ",
                               wrong.front());
  for (size_t i = 1; i < wrong.size(); ++i) failed.details.push_back(wrong[i]);
  failed.details.insert(failed.details.end(), lines.begin(), lines.end());
  failed.details.push_back(fmt::format("the emulator's checks passed ({})", ran.summary));
  return failed;
}

}  // namespace

int runTile(const TileRunOptions& options, const ServiceStarter& startService, std::ostream& out, std::ostream& err) {
  // Output folders first: a file named like one must not cost a whole build and run, then lose the outputs.
  if (!prepareOutputFolder("--out-dir", options.outDir, err)) return 2;
  if (!prepareOutputFolder("--keep", options.keepDir, err)) return 2;
  std::string code, kernel;
  codegen::TileLineMap tileLines;
  int status =
      codegen::compileToAscendC({options.file, options.diagnostics, {}, options.params}, code, kernel, err, &tileLines);
  if (status != 0) return status;
  std::variant<Prepared, int> prepared = prepare(options, kernel, err);
  if (const int* failed = std::get_if<int>(&prepared)) return *failed;
  const Prepared& ready = std::get<Prepared>(prepared);
  runner::BuildRunService* started = startService();
  if (started == nullptr) return 2;
  runner::BuildRunService& service = *started;
  bool temporary = false;
  fs::path dir = workFolder(options.keepDir, temporary);
  std::error_code ec;
  auto cleanUp = [&] {
    if (temporary) fs::remove_all(dir, ec);
  };
  fs::path source = dir / (kernel + ".cpp"), outputs = dir / "outputs";
  std::optional<std::vector<std::string>> launcherArgs = launcherArguments(options, ready, dir, err);
  std::string error;
  if (!launcherArgs || !support::writeFileAtomically(source, code, &error)) {
    if (!error.empty()) err << "error: " << error << '\n';
    cleanUp();
    return 2;
  }
  fs::remove_all(outputs, ec);

  runner::BuildRequest build;
  build.source = source.string();
  build.limits = compileLimits();
  runner::BuildResult built = service.build(build);
  FileOutcome outcome = judgeCompile(built);
  if (outcome.passed) {
    runner::RunRequest run;
    run.program = built.program;
    run.args = *launcherArgs;
    if (!options.outDir.empty() || options.check) {
      fs::create_directories(outputs, ec);
      run.args.insert(run.args.end(), {"--out-dir", outputs.string()});
    }
    run.workDir = dir.string();
    run.trace = options.profile;
    run.limits = runLimits(options.timeoutSeconds);
    runner::RunResult result = service.run(run);
    if (result.status == runner::RunStatus::UsageError) {
      // The launcher refused its arguments (checked here first, so rare): a usage error, said as it said it.
      err << result.err;
      cleanUp();
      return 2;
    }
    outcome = judgeRun(result, options.timeoutSeconds);
    if (result.status == runner::RunStatus::CheckFailed) {
      std::string shown = source.filename().string();
      if (!options.keepDir.empty()) shown = (fs::path(options.keepDir) / shown).string();
      std::vector<std::string> lines = {outcome.summary};
      lines.insert(lines.end(), outcome.details.begin(), outcome.details.end());
      lines = pointAtTile(lines, {source.filename().string(), shown, options.file, &tileLines});
      outcome.summary = lines.front();
      outcome.details.assign(lines.begin() + 1, lines.end());
    }
    if (!options.keepDir.empty()) {
      fs::copy_file(built.program, dir / kernel, fs::copy_options::overwrite_existing, ec);
      if (!support::writeFileAtomically(dir / "report.jsonl", result.report, &error)) {
        outcome.details.push_back(error);
      }
    }
    if (outcome.passed && !options.outDir.empty()) {
      if (std::string copyError = copyOutputs(outputs, options.outDir, ready.args.fileShapes); !copyError.empty()) {
        outcome = FileOutcome{};
        outcome.summary = copyError;
      }
    }
    // After the copy: the outputs of a wrong kernel are what its author needs to look at.
    if (outcome.passed && options.check) outcome = compareWithReference(ready, outputs, std::move(outcome));
    if (outcome.passed && options.profile && !result.tracePath.empty()) {
      try {
        perf::ArchSpec arch = perf::loadArchByName("910b2", perf::defaultArchDir());
        std::istringstream profile(perf::profileTraceFile(result.tracePath, arch));
        for (std::string line; std::getline(profile, line);) outcome.details.push_back(line);
      } catch (const perf::PerfError& e) {
        outcome.details.push_back(fmt::format("no profile: {}", e.what()));
      }
    }
  } else {
    // A generated kernel that does not build is a compiler bug: keep what is needed to report it.
    outcome.details.push_back(
        fmt::format("internal compiler error: the generated AscendC does not build; "
                    "rerun with --keep DIR to inspect {}",
                    source.filename().string()));
  }
  printOutcome(out, kernel, outcome);
  cleanUp();
  return outcome.passed ? 0 : 1;
}

}  // namespace tilecraft::cli
