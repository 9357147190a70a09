// `tilecraft run FILE.tile --shape N=1000 ... --seed S`: compile a Tile DSL kernel to AscendC, build it against the
// emulator in a child process, run it, and print its outputs, the emulator's report line and the profile.
#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "cli/emu_run.h"
#include "cli/flags.h"
#include "cli/registry.h"
#include "codegen/driver.h"
#include "interp/files.h"
#include "interp/kernel_args.h"
#include "interp/npy.h"
#include "perf/error.h"
#include "perf/timeline_command.h"
#include "runner/service.h"
#include "support/assert.h"
#include "support/files.h"
#include "support/numbers.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

// --show beyond this prints more than anyone reads (and the launcher's int64 would take any value).
constexpr int kMaxShow = 1000000;

struct RunOptions {
  std::string file;
  std::vector<std::string> shapes;  // NAME=VALUE for dims
  std::vector<std::string> attrs;   // NAME=VALUE for attributes
  std::vector<std::string> inputs;  // NAME=FILE (.bin or .npy)
  uint64_t seed = 1;
  std::string outDir;   // the outputs as NAME.npy
  std::string keepDir;  // keep the generated source, the program and the report here
  double timeoutSeconds = 120;
  int show = 8;
  bool profile = true;
  std::string diagnostics = "text";
  std::string range;  // LO,HI: the range of generated inputs
  bool sandbox = true;
};

fs::path workFolder(const std::string& keepDir, bool& temporary) {
  temporary = keepDir.empty();
  if (!temporary) return fs::absolute(keepDir);  // prepareOutputFolder made it
  std::string pattern = (fs::temp_directory_path() / "tilecraft-run-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "cannot create a temporary folder");
  }
  return pattern;
}

void printOutcome(const std::string& name, const FileOutcome& outcome) {
  std::istringstream lines(outcome.programOut);
  for (std::string line; std::getline(lines, line);) std::cout << "    " << line << '\n';
  std::cout << (outcome.passed ? "PASS " : "FAIL ") << name << ": " << outcome.summary << '\n';
  for (const std::string& d : outcome.details) std::cout << "    " << d << '\n';
}

// The kernel's arguments checked against the program on this side, before anything is built: the launcher in the
// sandbox would take a size past int64 as its largest value, a folder or /dev/zero as an input, a .npy of the
// wrong shape as a byte count that happens to match. Relative --in paths are read from the caller's folder.
std::optional<interp::KernelArgs> checkArguments(const RunOptions& options, const std::string& kernelName) {
  interp::DiskFiles files;
  std::string error;
  std::optional<std::string> text = files.read(options.file, &error);
  if (!text) {
    std::cerr << "error: " << error << '\n';
    return std::nullopt;
  }
  std::unique_ptr<interp::CheckedProgram> program = interp::checkProgram(options.file, *text);
  const dsl::KernelInfo* kernel = program->ok() ? program->kernel(kernelName) : nullptr;
  TC_ASSERT(kernel != nullptr, "the program compiled, so it checks");
  interp::KernelArgFlags flags{options.shapes, options.attrs, options.inputs, "--in"};
  std::optional<interp::KernelArgs> args = interp::parseKernelArgs(*program, *kernel, flags, files, &error);
  if (!args) std::cerr << "error: " << error << '\n';
  return args;
}

// The launcher's arguments from checked values: sizes in their canonical spelling, inputs as .npy files written
// into the run's own folder (so the sandbox needs no view of the caller's files, and what it reads is what was
// checked).
std::optional<std::vector<std::string>> launcherArguments(const RunOptions& options, const interp::KernelArgs& args,
                                                          const fs::path& dir) {
  std::vector<std::string> out = {"--seed", std::to_string(options.seed), "--show", std::to_string(options.show)};
  if (!options.range.empty()) out.insert(out.end(), {"--range", options.range});
  for (const auto& [name, size] : args.dims) out.push_back(fmt::format("{}={}", name, size));
  for (const auto& [name, text] : args.attrTexts) out.push_back(name + "=" + text);
  for (const auto& [name, input] : args.inputs) {
    fs::path file = dir / "inputs" / (name + ".npy");
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    std::string error;
    if (!support::writeFileAtomically(file, interp::encodeNpy(input.tensor), &error)) {
      std::cerr << "error: " << error << '\n';
      return std::nullopt;
    }
    out.insert(out.end(), {"--in", name + "=" + file.string()});
  }
  return out;
}

// Copies the run's outputs into --out-dir, each file through a temporary and a rename: a failure leaves the
// folder's old files whole. "" or the message.
std::string copyOutputs(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(from, ec)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::optional<std::string> bytes = support::readFile(file);
    std::string error;
    fs::path target = to / file.filename();
    if (!bytes) return fmt::format("cannot read the output '{}'", file.filename().string());
    if (!support::writeFileAtomically(target, *bytes, &error)) return error;
  }
  return "";
}

int runTile(const RunOptions& options) {
  // Output folders first: a file named like one must not cost a whole build and run, then lose the outputs.
  if (!prepareOutputFolder("--out-dir", options.outDir, std::cerr)) return 2;
  if (!prepareOutputFolder("--keep", options.keepDir, std::cerr)) return 2;
  std::string code, kernel;
  int status = codegen::compileToAscendC({options.file, options.diagnostics}, code, kernel, std::cerr);
  if (status != 0) return status;
  std::optional<interp::KernelArgs> args = checkArguments(options, kernel);
  if (!args) return 2;
  runner::ServiceOptions serviceOptions;
  serviceOptions.emuInclude = TILECRAFT_EMU_INCLUDE_DIR;
  serviceOptions.sandbox = options.sandbox;
  std::unique_ptr<runner::BuildRunService> service = runner::startBuildRunService(serviceOptions, std::cerr);
  if (!service) return 2;
  bool temporary = false;
  fs::path dir = workFolder(options.keepDir, temporary);
  std::error_code ec;
  auto cleanUp = [&] {
    if (temporary) fs::remove_all(dir, ec);
  };
  fs::path source = dir / (kernel + ".cpp"), outputs = dir / "outputs";
  std::optional<std::vector<std::string>> launcherArgs = launcherArguments(options, *args, dir);
  std::string error;
  if (!launcherArgs || !support::writeFileAtomically(source, code, &error)) {
    if (!error.empty()) std::cerr << "error: " << error << '\n';
    cleanUp();
    return 2;
  }
  fs::remove_all(outputs, ec);

  runner::BuildRequest build;
  build.source = source.string();
  build.limits = compileLimits();
  runner::BuildResult built = service->build(build);
  FileOutcome outcome = judgeCompile(built);
  if (outcome.passed) {
    runner::RunRequest run;
    run.program = built.program;
    run.args = *launcherArgs;
    if (!options.outDir.empty()) {
      fs::create_directories(outputs, ec);
      run.args.insert(run.args.end(), {"--out-dir", outputs.string()});
    }
    run.workDir = dir.string();
    run.trace = options.profile;
    run.limits = runLimits(options.timeoutSeconds);
    runner::RunResult result = service->run(run);
    if (result.status == runner::RunStatus::UsageError) {
      // The launcher refused its arguments (checked here first, so rare): a usage error, said as it said it.
      std::cerr << result.err;
      cleanUp();
      return 2;
    }
    outcome = judgeRun(result, options.timeoutSeconds);
    if (!options.keepDir.empty()) {
      fs::copy_file(built.program, dir / kernel, fs::copy_options::overwrite_existing, ec);
      if (!support::writeFileAtomically(dir / "report.jsonl", result.report, &error)) {
        outcome.details.push_back(error);
      }
    }
    if (outcome.passed && !options.outDir.empty()) {
      if (std::string copyError = copyOutputs(outputs, options.outDir); !copyError.empty()) {
        outcome = FileOutcome{};
        outcome.summary = copyError;
      }
    }
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
  printOutcome(kernel, outcome);
  cleanUp();
  return outcome.passed ? 0 : 1;
}

void registerRunCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "run", "Compile a Tile DSL kernel, build it against the emulator, run it and print its outputs and profile");
  auto options = std::make_shared<RunOptions>();
  cmd->add_option("FILE.tile", options->file, "The DSL program (one kernel)")->required();
  cmd->add_option("--shape", options->shapes, "A dim: NAME=VALUE (repeatable), e.g. --shape M=100 --shape N=1000");
  cmd->add_option("--attr", options->attrs, "A scalar attribute: NAME=VALUE (repeatable); defaults apply otherwise");
  cmd->add_option("--in", options->inputs, "An input from a file: NAME=FILE.npy|FILE.bin (else generated)");
  checkSeed(cmd->add_option("--seed", options->seed, "Seed of the generated inputs")->capture_default_str());
  cmd->add_option("--out-dir", options->outDir, "Write every output as DIR/NAME.npy");
  cmd->add_option("--keep", options->keepDir, "Keep the generated .cpp, the program and the report in DIR");
  checkSeconds(cmd->add_option("--timeout", options->timeoutSeconds,
                               fmt::format("Seconds the kernel may run (at most {:g})", support::kMaxSeconds))
                   ->capture_default_str(),
               false);
  checkCount(cmd->add_option("--show", options->show, "Values printed per output")->capture_default_str(), 0, kMaxShow,
             "values");
  cmd->add_flag("!--no-profile", options->profile, "Do not simulate the run on the performance model");
  cmd->add_option("--range", options->range, "Generated inputs uniform in [LO, HI) (integers: LO..HI), as LO,HI")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            size_t comma = value.find(',');
            char* end = nullptr;
            if (comma != std::string::npos) {
              double lo = std::strtod(value.c_str(), &end);
              bool loOk = end == value.c_str() + comma;
              double hi = std::strtod(value.c_str() + comma + 1, &end);
              bool hiOk = end == value.c_str() + value.size() && comma + 1 < value.size();
              if (loOk && hiOk && std::isfinite(lo) && std::isfinite(hi)) {
                return lo < hi ? "" : "'" + value + "': LO must be below HI (e.g. --range -2,2)";
              }
            }
            return "'" + value + "' is not LO,HI (two finite numbers, e.g. --range -2,2)";
          },
          "LO,HI"));
  cmd->add_flag("!--no-sandbox", options->sandbox,
                "Build and run without bubblewrap (same limits, no isolation: for debugging)");
  cmd->add_option("--diagnostics", options->diagnostics, "Compiler diagnostics on stderr: text | json")
      ->capture_default_str();
  cmd->callback([options] {
    int status = runTile(*options);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("run", &registerRunCommand);

}  // namespace
}  // namespace tilecraft::cli
