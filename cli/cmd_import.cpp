// `tilecraft import kernelbench FILE.py... --out DIR`, `tilecraft import kernelbench --multikernelbench FOLDER
// --out DIR`, `tilecraft import npukernelbench DIR --out DIR2 [--solutions DIR3]`: upstream tasks become task
// folders (docs/import.md). One line per task, then a count; exit 1 when any task was not imported, 2 on usage.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "cli/registry.h"
#include "harness/golden.h"
#include "harness/import_task.h"
#include "runner/sandbox.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

struct ImportCommand {
  std::vector<std::string> paths;
  std::string out;
  std::string solutions;
  bool multiKernelBench = false;
  bool force = false;
  double itemSeconds = 120;
  uint64_t budget = 1 << 26;
};

int runImportCommand(harness::ImportKind kind, const ImportCommand& cmd, std::ostream& out, std::ostream& err) {
  harness::ImportRequest request;
  request.kind = kind;
  for (const std::string& p : cmd.paths) request.paths.emplace_back(p);
  request.multiKernelBench = cmd.multiKernelBench;
  request.out = cmd.out;
  request.solutions = cmd.solutions;
  request.force = cmd.force;
  std::string usage;
  std::vector<harness::ImportSource> sources = harness::findImportSources(request, &usage);
  if (!usage.empty()) {
    err << "error: " << usage << "\n";
    return 2;
  }
  std::string why;
  std::optional<std::string> python = harness::findTorchPython(&why);
  if (!python) {
    err << "error: " << why << "\n";
    return 2;
  }
  std::shared_ptr<runner::Sandbox> sandbox = runner::makeSystemSandbox(runner::SandboxMode::Bubblewrap);
  {
    runner::SandboxSpec trial;
    trial.argv = {*python, "-c", "pass"};
    trial.limits.wallSeconds = 60;
    runner::SandboxResult r = sandbox->run(trial);
    if (!r.started || r.exitCode != 0) {
      // import has no --no-sandbox: the files it runs are strangers'.
      std::string reason =
          r.started ? fmt::format("cannot start the sandbox: {} -c pass exited with status {}", *python, r.exitCode)
                    : r.startError;
      size_t cut = reason.find(", or rerun with --no-sandbox");
      if (cut != std::string::npos) reason.resize(cut);
      err << "error: " << reason << " (import runs the upstream files only inside it)\n";
      return 2;
    }
  }
  std::error_code ec;
  fs::path work = fs::temp_directory_path(ec) / fmt::format("tilecraft-import-{}", ::getpid());
  fs::create_directories(work, ec);
  harness::SandboxProbeOptions options;
  options.python = *python;
  options.workDir = work;
  options.itemSeconds = cmd.itemSeconds;
  options.budgetElements = cmd.budget;
  std::unique_ptr<harness::ImportProbe> probe = harness::makeSandboxProbe(sandbox, options);
  std::vector<harness::ImportOutcome> outcomes = harness::runImport(request, sources, *probe);
  fs::remove_all(work, ec);

  int imported = 0, skipped = 0, failed = 0, cases = 0;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const harness::ImportOutcome& o = outcomes[i];
    const harness::ImportSource& s = sources[i];
    switch (o.status) {
      case harness::ImportStatus::Imported:
        ++imported;
        cases += o.cases;
        out << fmt::format("imported {} -> {}: {} case{}\n", s.path.string(), s.taskDir.string(), o.cases,
                           o.cases == 1 ? "" : "s");
        for (const std::string& n : o.notes) out << "  note: " << n << "\n";
        break;
      case harness::ImportStatus::Skipped:
        ++skipped;
        out << fmt::format("skipped {}: already imported in {} (--force imports it again)\n", s.path.string(),
                           s.taskDir.string());
        break;
      case harness::ImportStatus::Failed:
        ++failed;
        out << fmt::format("{}: error: not imported: {}\n", s.path.string(), o.reason);
        break;
    }
  }
  out << fmt::format("{} imported ({} case{}), {} skipped, {} not imported\n", imported, cases, cases == 1 ? "" : "s",
                     skipped, failed);
  return failed == 0 ? 0 : 1;
}

void addCommon(CLI::App* sub, const std::shared_ptr<ImportCommand>& cmd) {
  sub->add_option("--out", cmd->out, "Where the task folders go (created)")->required();
  sub->add_flag("--force", cmd->force, "Import again the tasks whose folder already exists");
  sub->add_option("--timeout", cmd->itemSeconds, "Seconds the probe may spend on one task")->capture_default_str();
  sub->add_option("--budget", cmd->budget, "Largest real run (tensor elements) the probe makes to measure value ranges")
      ->capture_default_str();
}

void registerImportCommands(CLI::App& app) {
  CLI::App* import = app.add_subcommand("import",
                                        "Turn KernelBench / MultiKernelBench / NPUKernelBench tasks into "
                                        "task folders (docs/import.md)");
  import->require_subcommand(1);

  auto kb = std::make_shared<ImportCommand>();
  CLI::App* kernelbench = import->add_subcommand("kernelbench", "KernelBench or MultiKernelBench single-file tasks");
  kernelbench->add_option("PATH", kb->paths, "A task file (.py) or a folder of them (repeat)")->required();
  kernelbench->add_flag("--multikernelbench", kb->multiKernelBench,
                        "PATH is MultiKernelBench's reference/ folder or a category folder: the category is the "
                        "folder's name");
  addCommon(kernelbench, kb);
  kernelbench->callback([kb] {
    int status = runImportCommand(harness::ImportKind::KernelBench, *kb, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });

  auto nkb = std::make_shared<ImportCommand>();
  CLI::App* npu = import->add_subcommand("npukernelbench", "NPUKernelBench task folders (api_desc.md, validation/)");
  npu->add_option("DIR", nkb->paths, "A task folder or a folder above task folders (repeat)")->required();
  npu->add_option("--solutions", nkb->solutions, "Keep each task's answer/0/ as an AscendC solution in DIR/<task>/");
  addCommon(npu, nkb);
  npu->callback([nkb] {
    int status = runImportCommand(harness::ImportKind::NpuKernelBench, *nkb, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("import", &registerImportCommands);

}  // namespace
}  // namespace tilecraft::cli
