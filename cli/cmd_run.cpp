// `tilecraft run FILE.tile --shape N=1000 ... --seed S`: compile a Tile DSL kernel to AscendC, build it against the
// emulator in a child process, run it, and print its outputs, the emulator's report line and the profile.
#include <stdlib.h>

#include <CLI/CLI.hpp>
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
#include "cli/registry.h"
#include "codegen/driver.h"
#include "perf/error.h"
#include "perf/timeline_command.h"
#include "runner/service.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

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
  if (!temporary) {
    fs::create_directories(keepDir);
    return fs::absolute(keepDir);
  }
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

// NAME=FILE with FILE resolved from the caller's folder (the program runs in its own), or the error.
std::optional<std::string> resolveInput(const std::string& spec, std::string& resolved,
                                        std::vector<std::string>& readable) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
    return fmt::format("error: --in takes NAME=FILE, got '{}'", spec);
  }
  fs::path file = fs::absolute(spec.substr(eq + 1)).lexically_normal();
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    return fmt::format("error: --in {}: no such file '{}'", spec.substr(0, eq), spec.substr(eq + 1));
  }
  resolved = spec.substr(0, eq + 1) + file.string();
  readable.push_back(file.string());
  return std::nullopt;
}

int runTile(const RunOptions& options) {
  std::vector<std::string> inputs, readable;
  for (const std::string& in : options.inputs) {
    std::string resolved;
    if (auto error = resolveInput(in, resolved, readable)) {
      std::cerr << *error << '\n';
      return 2;
    }
    inputs.push_back(resolved);
  }
  std::string code, kernel;
  int status = codegen::compileToAscendC({options.file, options.diagnostics}, code, kernel, std::cerr);
  if (status != 0) return status;
  runner::ServiceOptions serviceOptions;
  serviceOptions.emuInclude = TILECRAFT_EMU_INCLUDE_DIR;
  serviceOptions.sandbox = options.sandbox;
  std::unique_ptr<runner::BuildRunService> service = runner::startBuildRunService(serviceOptions, std::cerr);
  if (!service) return 2;
  bool temporary = false;
  fs::path dir = workFolder(options.keepDir, temporary);
  fs::path source = dir / (kernel + ".cpp"), outputs = dir / "outputs";
  std::ofstream(source) << code;
  std::error_code ec;
  fs::remove_all(outputs, ec);

  runner::BuildRequest build;
  build.source = source.string();
  build.limits = compileLimits();
  runner::BuildResult built = service->build(build);
  FileOutcome outcome = judgeCompile(built);
  if (outcome.passed) {
    runner::RunRequest run;
    run.program = built.program;
    run.args = {"--seed", std::to_string(options.seed), "--show", std::to_string(options.show)};
    if (!options.range.empty()) run.args.insert(run.args.end(), {"--range", options.range});
    for (const std::string& s : options.shapes) run.args.push_back(s);
    for (const std::string& a : options.attrs) run.args.push_back(a);
    for (const std::string& in : inputs) run.args.insert(run.args.end(), {"--in", in});
    if (!options.outDir.empty()) {
      fs::create_directories(outputs);
      run.args.insert(run.args.end(), {"--out-dir", outputs.string()});
    }
    run.workDir = dir.string();
    run.readOnlyPaths = readable;
    run.trace = options.profile;
    run.limits = runLimits(options.timeoutSeconds);
    runner::RunResult result = service->run(run);
    if (result.status == runner::RunStatus::UsageError) {
      // The launcher refused its arguments (a missing dim, an unknown name): a usage error, said as it said it.
      std::cerr << result.err;
      if (temporary) fs::remove_all(dir, ec);
      return 2;
    }
    outcome = judgeRun(result, options.timeoutSeconds);
    if (!options.keepDir.empty()) {
      fs::copy_file(built.program, dir / kernel, fs::copy_options::overwrite_existing, ec);
      std::ofstream(dir / "report.jsonl", std::ios::binary) << result.report;
    }
    if (outcome.passed && !options.outDir.empty()) {
      fs::create_directories(options.outDir, ec);
      for (const auto& entry : fs::directory_iterator(outputs, ec)) {
        fs::copy_file(entry.path(), fs::path(options.outDir) / entry.path().filename(),
                      fs::copy_options::overwrite_existing, ec);
        if (ec) {
          outcome = FileOutcome{};
          fs::path target = fs::path(options.outDir) / entry.path().filename();
          outcome.summary = fmt::format("cannot write '{}': {}", target.string(), ec.message());
          break;
        }
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
  if (temporary) fs::remove_all(dir, ec);
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
  cmd->add_option("--seed", options->seed, "Seed of the generated inputs")->capture_default_str();
  cmd->add_option("--out-dir", options->outDir, "Write every output as DIR/NAME.npy");
  cmd->add_option("--keep", options->keepDir, "Keep the generated .cpp, the program and the report in DIR");
  cmd->add_option("--timeout", options->timeoutSeconds, "Seconds the kernel may run")->capture_default_str();
  cmd->add_option("--show", options->show, "Values printed per output")->capture_default_str();
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
