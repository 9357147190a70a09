// `tilecraft project run DIR`: a CANN custom-operator project (op_host + op_kernel) built and run on the emulator
// (project/project_run.h, docs/projects.md); with --task, judged on a task's cases as `tilecraft bench` judges an
// AscendC solution (harness/project_solution.h).
#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "cli/flags.h"
#include "cli/judge_setup.h"
#include "cli/registry.h"
#include "harness/bench.h"
#include "harness/golden.h"
#include "perf/arch.h"
#include "project/project_run.h"
#include "runner/service.h"
#include "support/files.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

struct ProjectCommand {
  project::ProjectOptions options;
  bool sandbox = true;
  std::string task;                  // --task: the case source
  std::vector<std::string> caseIds;  // --case: only these
  std::string rule = "cann";
  uint64_t seed = 1;
  std::string cacheDir;
};

// Removes the temporary work folder of a --task run when there is no --keep.
struct TemporaryFolder {
  fs::path path;
  ~TemporaryFolder() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

// --task: every case (or the --case ones) of the task on two input seeds, each output judged against the task's
// golden by the harness's rule, one line per case. 0 all cases correct, 1 one is not, 2 a usage error.
int runOnTask(const ProjectCommand& cmd) {
  const project::ProjectOptions& o = cmd.options;
  if (!o.inputs.empty() || !o.expects.empty() || !o.attrs.empty() || !o.outDir.empty() || !o.shapes.empty()) {
    std::cerr << "error: --task takes the inputs, attributes and goldens from the task's cases: drop --in, --expect, "
                 "--attr and --out\n";
    return 2;
  }
  harness::TaskLoad load = harness::loadTask(cmd.task);
  if (!load.task) {
    std::cerr << fmt::format("error: --task {}: {}\n", cmd.task,
                             load.errors.empty() ? "not a task folder" : load.errors.front().str());
    return 2;
  }
  const harness::Task& task = *load.task;
  std::vector<const harness::Case*> cases;
  for (const harness::Case& c : task.cases) {
    if (cmd.caseIds.empty() || std::find(cmd.caseIds.begin(), cmd.caseIds.end(), c.id) != cmd.caseIds.end())
      cases.push_back(&c);
  }
  for (const std::string& id : cmd.caseIds) {
    bool known = std::any_of(task.cases.begin(), task.cases.end(), [&](const harness::Case& c) { return c.id == id; });
    if (!known) {
      std::cerr << fmt::format("error: --case {}: task {} has no such case ({} has {} cases)\n", id, task.name,
                               cmd.task, task.cases.size());
      return 2;
    }
  }
  harness::BenchOptions bench;
  std::optional<harness::Rule> rule = harness::ruleFromName(cmd.rule);
  if (!rule) {
    std::cerr << fmt::format("error: --rule {}: expected cann or allclose\n", cmd.rule);
    return 2;
  }
  bench.rule = *rule;
  bench.seed = cmd.seed;
  bench.timeoutSeconds = o.timeoutSeconds;
  TemporaryFolder temporary;
  if (!o.keepDir.empty()) {
    if (!prepareOutputFolder("--keep", o.keepDir, std::cerr)) return 2;
    bench.outDir = fs::absolute(o.keepDir).lexically_normal().string();
  } else {
    std::string pattern = (fs::temp_directory_path() / "tilecraft-project-task-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::cerr << "error: cannot create a temporary folder\n";
      return 2;
    }
    temporary.path = bench.outDir = pattern;
  }
  // The project is read (a submission unpacked) before anything starts, so that a bad one is a usage error.
  project::ProjectLayout layout;
  std::string error;
  if (!project::openLayout(o.dir, fs::path(bench.outDir) / "submission-check", layout, &error)) {
    std::cerr << error << '\n';
    return 2;
  }
  BenchParts parts = startBenchParts(cmd.cacheDir, bench.outDir, cmd.sandbox, std::cerr);
  if (!parts.service) return 2;
  harness::BenchEnv env;
  env.service = parts.service.get();
  env.golden = parts.golden.get();
  perf::ArchSpec arch;
  try {
    arch = perf::loadArchByName(bench.arch, perf::defaultArchDir());
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
  harness::Solution solution;
  solution.kind = "ascendc";
  solution.dir = o.dir;
  if (project::isSnippetPath(o.dir)) {
    solution.snippet = o.dir;
    solution.dir = fs::path(o.dir).parent_path();
  }
  std::cout << fmt::format("project {} on task {}: {} case(s), rule {}\n", o.dir, task.name, cases.size(),
                           harness::ruleName(bench.rule));
  std::mutex goldenMutex;
  std::vector<harness::Record> rows = harness::judgeTask(task, cases, solution, bench, env, arch, goldenMutex);
  size_t passed = 0;
  for (const harness::Record& r : rows) {
    const harness::Case* c = nullptr;
    for (const harness::Case* k : cases) c = k->id == r.caseId ? k : c;
    std::string what = c != nullptr && !c->note.empty() ? fmt::format(" ({})", c->note) : "";
    if (r.correct) {
      ++passed;
      std::cout << fmt::format("case {}{}: PASS, max rel error {:.3g} (limit {:.3g}), {:.2f} us simulated\n", r.caseId,
                               what, r.maxRelError, r.tau, r.simUs);
    } else {
      std::cout << fmt::format("case {}{}: FAIL {}: {}\n", r.caseId, what, harness::failureName(r.failure), r.message);
    }
  }
  std::cout << fmt::format("{} {} of {} cases of {}\n", passed == rows.size() ? "PASS" : "FAIL", passed, rows.size(),
                           task.name);
  return passed == rows.size() ? 0 : 1;
}

int runProjectCommand(const ProjectCommand& cmd) {
  if (!cmd.task.empty()) return runOnTask(cmd);
  runner::ServiceOptions serviceOptions;
  serviceOptions.emuInclude = emulatorIncludeDir();
  serviceOptions.sandbox = cmd.sandbox;
  std::unique_ptr<runner::BuildRunService> service = runner::startBuildRunService(serviceOptions, std::cerr);
  if (!service) return 2;
  return project::runProject(cmd.options, *service, std::cout, std::cerr);
}

// `tilecraft project unpack FILE.py --out DIR`: the project a MultiKernelBench submission describes, written out.
int unpackCommand(const std::string& snippet, const std::string& outDir) {
  if (!prepareOutputFolder("--out", outDir, std::cerr)) return 2;
  std::vector<project::SourceMap> maps;
  std::string error;
  if (!project::unpackSnippet(snippet, outDir, maps, error)) {
    std::cerr << error << '\n';
    return 2;
  }
  project::ProjectLayout layout;
  if (!project::findLayout(outDir, layout, &error)) {
    std::cerr << error << '\n';
    return 2;
  }
  std::cout << fmt::format("{}: the project is in {} (kernel {}/op_kernel/{})\n", snippet, outDir, outDir,
                           fs::path(layout.kernelSource).filename().string());
  return 0;
}

// `tilecraft project pack DIR --out FILE.py`: the reverse, a project as the six strings MultiKernelBench takes.
int packCommand(const std::string& dir, const std::string& outFile) {
  std::string text, error;
  if (!project::packSubmission(dir, text, error)) {
    std::cerr << error << '\n';
    return 2;
  }
  if (!support::writeFileAtomically(outFile, text, &error)) {
    std::cerr << "error: --out " << error << '\n';
    return 2;
  }
  std::cout << fmt::format("{}: the submission of {}\n", outFile, dir);
  return 0;
}

void registerSubmissionCommands(CLI::App* projectCmd) {
  CLI::App* unpack = projectCmd->add_subcommand(
      "unpack", "Write the CANN project of a MultiKernelBench AscendC submission (six source strings) to a folder");
  auto snippet = std::make_shared<std::string>();
  auto outDir = std::make_shared<std::string>();
  unpack
      ->add_option("FILE", *snippet,
                   "The submission: a Python snippet defining project_json_src, host_tiling_src, "
                   "host_operator_src, kernel_src (python_bind_src, model_src)")
      ->required();
  unpack->add_option("--out", *outDir, "The project folder to write (new or empty)")->required();
  unpack->callback([snippet, outDir] {
    int status = unpackCommand(*snippet, *outDir);
    if (status != 0) throw CLI::RuntimeError(status);
  });
  CLI::App* pack = projectCmd->add_subcommand(
      "pack",
      "Write a CANN project (its msopgen op description <op>.json, op_host/, op_kernel/) as a MultiKernelBench "
      "AscendC submission");
  auto dir = std::make_shared<std::string>();
  auto outFile = std::make_shared<std::string>();
  pack->add_option("DIR", *dir, "The project folder")->required();
  pack->add_option("--out", *outFile, "The submission to write (FILE.py)")->required();
  pack->callback([dir, outFile] {
    int status = packCommand(*dir, *outFile);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

void registerProjectCommands(CLI::App& app) {
  CLI::App* projectCmd = app.add_subcommand("project", "CANN custom-operator projects (op_host + op_kernel)");
  projectCmd->require_subcommand(1);
  CLI::App* run = projectCmd->add_subcommand(
      "run", "Build a project's host and kernel against the emulator, run InferShape, TilingFunc and the kernel");
  auto cmd = std::make_shared<ProjectCommand>();
  run->add_option("DIR", cmd->options.dir,
                  "The project folder (holding op_host/ and op_kernel/), or a MultiKernelBench submission (FILE.py "
                  "defining the six source strings)")
      ->required();
  run->add_option("--in", cmd->options.inputs, "NAME=FILE.npy for each input of the OpDef (repeat)");
  run->add_option("--attr", cmd->options.attrs, "NAME=VALUE for an attribute (default: the OpDef's; lists: 1,2,3)");
  run->add_option("--expect", cmd->options.expects,
                  "NAME=FILE.npy: compare that output with it (its shape also stands in for a missing InferShape)");
  run->add_option("--shape", cmd->options.shapes,
                  "NAME=D0,D1,...: an output's shape as the caller allocates it, not compared (repeat)");
  run->add_option("--out", cmd->options.outDir, "Write each output as NAME.npy here");
  run->add_option("--keep", cmd->options.keepDir, "Keep the generated drivers, tiling header and buffers here");
  run->add_option("--timeout", cmd->options.timeoutSeconds, "Seconds each program may run")->capture_default_str();
  run->add_option("--sync", cmd->options.sync,
                  "Cross-pipe sync: project (bisheng's --cce-auto-sync unless the project's CMakeLists.txt turns it "
                  "off) | auto | strict (an unsynchronised access is an error)")
      ->capture_default_str();
  run->add_option("--faults", cmd->options.faults,
                  "error | warn: the faults the device runs through (cross-pipe hazards, reads of unwritten local "
                  "memory, GM accesses inside a tensor's 512-byte block, InitBuffer of 0 bytes) warn and the run "
                  "goes on")
      ->capture_default_str();
  run->add_option("--include", cmd->options.includeDirs,
                  "Another header folder for op_host and op_kernel (repeat), e.g. cann-ops' common includes");
  run->add_option("--task", cmd->task,
                  "A task folder (proto.yaml, cases.csv, golden.py): judge every case against its golden instead of "
                  "--in/--expect");
  run->add_option("--case", cmd->caseIds, "With --task: only this case id (repeat)");
  run->add_option("--rule", cmd->rule, "With --task: cann (dtype-scaled relative error) | allclose")
      ->capture_default_str();
  checkSeed(run->add_option("--seed", cmd->seed, "With --task: seed of the first input draw")->capture_default_str());
  run->add_option("--cache", cmd->cacheDir, "With --task: goldens and built programs (default: the bench cache)");
  run->add_flag("!--no-sandbox", cmd->sandbox, "Build and run without bubblewrap (no isolation: trusted code only)");
  run->callback([cmd] {
    int status = runProjectCommand(*cmd);
    if (status != 0) throw CLI::RuntimeError(status);
  });
  registerSubmissionCommands(projectCmd);
}

const CommandRegistration kRegistration("project", &registerProjectCommands);

}  // namespace
}  // namespace tilecraft::cli
