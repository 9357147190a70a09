// `tilecraft task check DIR...`: loads task folders (CANN Bench layout) and reports every problem as
// FILE:LINE: error: message, then "N tasks, M cases, K errors". Exit 0 when clean, 1 on any error, 2 on
// usage.
#include <algorithm>
#include <cmath>
#include <optional>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "cli/registry.h"
#include "harness/task.h"

namespace tilecraft::cli {
namespace {

struct TaskCheckOptions {
  std::vector<std::string> paths;
  std::string cases = "auto";
  bool levels = false;
  bool list = false;
};

std::string bound(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{}", v);
}

std::string rangeText(const std::optional<std::pair<double, double>>& r) {
  return r ? fmt::format("[{}, {}]", bound(r->first), bound(r->second)) : "default";
}

// One line per case, every field as loaded: what `--list` prints (and how a CSV and a YAML file are compared).
std::string describeCase(const harness::Task& task, const harness::Case& c) {
  std::string out = fmt::format("{} case {}:", task.name, c.id);
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const harness::CaseTensor& t = c.inputs[i];
    out += fmt::format(" {}", i < task.inputs.size() ? task.inputs[i].name : "?");
    if (!t.present) {
      out += " absent;";
      continue;
    }
    out += " " + t.dtypeName;
    for (size_t j = 0; j < t.shapes.size(); ++j) {
      std::string dims;
      for (int64_t d : t.shapes[j]) dims += (dims.empty() ? "" : ",") + std::to_string(d);
      out += fmt::format("{}[{}]", j == 0 ? (t.isList ? "{" : "") : " ", dims);
      if (j < t.elementRanges.size()) out += " " + rangeText(t.elementRanges[j]);
    }
    if (t.isList) out += "}";
    if (t.elementRanges.empty()) out += " " + rangeText(t.valueRange);
    out += ";";
  }
  out += " outputs";
  for (const std::string& d : task.outputDtypeNames(c)) out += " " + d;
  out += "; attrs " + c.attrsJson;
  if (!c.unsupported.empty()) out += "; not evaluable: " + c.unsupported;
  return out;
}

struct LevelCount {
  int tasks = 0;
  int cases = 0;
};

int runTaskCheck(const TaskCheckOptions& options, std::ostream& out, std::ostream& err) {
  harness::LoadOptions load;
  if (options.cases == "csv") load.cases = harness::CasesSource::Csv;
  if (options.cases == "yaml") load.cases = harness::CasesSource::Yaml;
  std::vector<std::filesystem::path> dirs;
  int errors = 0;
  for (const std::string& p : options.paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(p, ec)) {
      err << fmt::format("tilecraft task check: no such folder: {}\n", p);
      return 2;
    }
    std::vector<std::filesystem::path> found = harness::findTaskDirs(p);
    if (found.empty()) {
      out << fmt::format("{}: error: no task folder (a folder holding proto.yaml) in or under it\n", p);
      ++errors;
    }
    dirs.insert(dirs.end(), found.begin(), found.end());
  }
  int tasks = 0, cases = 0, unsupported = 0, warnings = 0;
  std::map<int, LevelCount> perLevel;
  for (const auto& dir : dirs) {
    harness::TaskLoad result = harness::loadTask(dir, load);
    // One list in line order, so a warning and an error of the same file read top to bottom.
    std::vector<harness::TaskError> problems = result.errors;
    problems.insert(problems.end(), result.warnings.begin(), result.warnings.end());
    std::map<std::string, size_t> fileRank;
    for (const harness::TaskError& e : problems) fileRank.emplace(e.file, fileRank.size());
    std::stable_sort(problems.begin(), problems.end(), [&](const harness::TaskError& a, const harness::TaskError& b) {
      size_t ra = fileRank.at(a.file), rb = fileRank.at(b.file);
      return ra != rb ? ra < rb : a.line < b.line;
    });
    for (const harness::TaskError& e : problems) out << e.str() << "\n";
    warnings += static_cast<int>(result.warnings.size());
    errors += static_cast<int>(result.errors.size());
    if (!result.task) continue;
    ++tasks;
    cases += static_cast<int>(result.task->cases.size());
    perLevel[result.task->level].tasks++;
    perLevel[result.task->level].cases += static_cast<int>(result.task->cases.size());
    for (const harness::Case& c : result.task->cases) {
      unsupported += c.unsupported.empty() ? 0 : 1;
      if (options.list) out << describeCase(*result.task, c) << "\n";
    }
  }
  if (options.levels) {
    for (const auto& [level, n] : perLevel)
      out << fmt::format("level {}: {} tasks, {} cases\n", level, n.tasks, n.cases);
  }
  out << fmt::format("{} task{}, {} case{}, {} error{}", tasks, tasks == 1 ? "" : "s", cases, cases == 1 ? "" : "s",
                     errors, errors == 1 ? "" : "s");
  if (warnings > 0) out << fmt::format(", {} warning{}", warnings, warnings == 1 ? "" : "s");
  out << "\n";
  if (unsupported > 0) {
    out << fmt::format(
        "{} of the cases use a dtype Tilecraft does not represent (float8, int4, ...); bench reports "
        "them as not evaluable\n",
        unsupported);
  }
  return errors == 0 ? 0 : 1;
}

void registerTaskCommands(CLI::App& app) {
  CLI::App* task = app.add_subcommand("task", "Benchmark tasks in CANN Bench's layout (docs/tasks.md)");
  task->require_subcommand(1);
  CLI::App* check = task->add_subcommand("check", "Load task folders and report every problem as FILE:LINE");
  auto options = std::make_shared<TaskCheckOptions>();
  check->add_option("DIR", options->paths, "A task folder, or a folder searched for task folders (repeat)")->required();
  check->add_option("--cases", options->cases, "Which cases file to read: auto (cases.yaml, else cases.csv), csv, yaml")
      ->check(CLI::IsMember({"auto", "csv", "yaml"}))
      ->capture_default_str();
  check->add_flag("--levels", options->levels, "Also print the task and case counts per level");
  check->add_flag("--list", options->list, "Also print every loaded case on one line (inputs, ranges, attrs)");
  check->callback([options] {
    int status = runTaskCheck(*options, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("task", &registerTaskCommands);

}  // namespace
}  // namespace tilecraft::cli
