// `tilecraft run FILE.tile --shape N=1000 ... --seed S`: compile a Tile DSL kernel to AscendC, build it against the
// emulator in a child process, run it, and print its outputs, the emulator's report line and the profile.
#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "cli/emu_run.h"
#include "cli/registry.h"
#include "codegen/driver.h"
#include "perf/error.h"
#include "perf/timeline_command.h"
#include "support/process.h"

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
};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

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

int runTile(const RunOptions& options, support::ProcessRunner& runner) {
  std::string code, kernel;
  int status = codegen::compileToAscendC({options.file, options.diagnostics}, code, kernel, std::cerr);
  if (status != 0) return status;
  bool temporary = false;
  fs::path dir = workFolder(options.keepDir, temporary);
  fs::path source = dir / (kernel + ".cpp"), program = dir / kernel, report = dir / "report.jsonl",
           trace = dir / "trace.jsonl";
  std::ofstream(source) << code;
  fs::remove(report);
  fs::remove(trace);

  support::ProcessSpec build;
  build.argv = {"g++", "-std=c++17", "-O1", "-Wall", "-Wextra", "-DASCENDC_CPU_DEBUG", "-I", TILECRAFT_EMU_INCLUDE_DIR,
                source.string(), "-pthread", "-o", program.string()};
  build.timeoutSeconds = kCompileTimeoutSeconds;
  build.env["LC_ALL"] = "C";
  FileOutcome outcome = judgeCompile(runner.run(build));
  if (outcome.passed) {
    support::ProcessSpec run;
    run.argv = {program.string(), "--seed", std::to_string(options.seed), "--show", std::to_string(options.show)};
    for (const std::string& s : options.shapes) run.argv.push_back(s);
    for (const std::string& a : options.attrs) run.argv.push_back(a);
    for (const std::string& in : options.inputs) {
      run.argv.push_back("--in");
      run.argv.push_back(in);
    }
    if (!options.outDir.empty()) {
      fs::create_directories(options.outDir);
      run.argv.push_back("--out-dir");
      run.argv.push_back(fs::absolute(options.outDir).string());
    }
    run.workdir = dir.string();
    run.timeoutSeconds = options.timeoutSeconds;
    run.env["TILECRAFT_EMU_REPORT"] = report.string();
    if (options.profile) run.env["TILECRAFT_EMU_TRACE"] = trace.string();
    support::ProcessResult result = runner.run(run);
    if (result.exitCode == 2) {
      // The launcher refused its arguments (a missing dim, an unknown name): a usage error, said as it said it.
      std::cerr << result.err;
      if (temporary) fs::remove_all(dir);
      return 2;
    }
    outcome = judgeRun(result, fs::exists(report) ? readFile(report) : std::string(), options.timeoutSeconds);
    if (outcome.passed && options.profile && fs::exists(trace)) {
      try {
        perf::ArchSpec arch = perf::loadArchByName("910b2", perf::defaultArchDir());
        std::istringstream profile(perf::profileTraceFile(trace.string(), arch));
        for (std::string line; std::getline(profile, line);) outcome.details.push_back(line);
      } catch (const perf::PerfError& e) {
        outcome.details.push_back(fmt::format("no profile: {}", e.what()));
      }
    }
  } else {
    // A generated kernel that does not build is a compiler bug: keep what is needed to report it.
    outcome.details.push_back(fmt::format("internal compiler error: the generated AscendC does not build; "
                                          "rerun with --keep DIR to inspect {}", source.filename().string()));
  }
  printOutcome(kernel, outcome);
  std::error_code ignored;
  if (temporary) fs::remove_all(dir, ignored);
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
  cmd->add_option("--diagnostics", options->diagnostics, "Compiler diagnostics on stderr: text | json")
      ->capture_default_str();
  cmd->callback([options] {
    support::SystemProcessRunner runner;
    int status = runTile(*options, runner);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("run", &registerRunCommand);

}  // namespace
}  // namespace tilecraft::cli
