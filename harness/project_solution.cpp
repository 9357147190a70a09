#include "harness/project_solution.h"

#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/judge.h"
#include "interp/npy.h"
#include "project/project_run.h"
#include "support/files.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;
using Stage = project::ProjectOutcome::Stage;

// The task tensor a NamedTensor belongs to: its own name, or NAME of a list element NAME.k.
std::string baseName(const std::string& name, const std::vector<TensorDecl>& decls) {
  for (const TensorDecl& d : decls) {
    if (d.name == name) return name;
  }
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

// `#N=FILE[,FILE...]` per task tensor, N its place in the task (and so in the OpDef); the files are written here.
std::vector<std::string> positionalSpecs(const std::vector<NamedTensor>& tensors, const std::vector<TensorDecl>& decls,
                                         const fs::path& dir) {
  fs::create_directories(dir);
  std::vector<std::string> files(decls.size());
  for (const NamedTensor& t : tensors) {
    std::string base = baseName(t.name, decls);
    for (size_t i = 0; i < decls.size(); ++i) {
      if (decls[i].name != base) continue;
      fs::path file = dir / (t.name + ".npy");
      std::string error;
      if (!support::writeFileAtomically(file, interp::encodeNpy(t.tensor), &error)) throw std::runtime_error(error);
      files[i] += (files[i].empty() ? "" : ",") + file.string();
    }
  }
  std::vector<std::string> specs;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!files[i].empty()) specs.push_back(fmt::format("#{}={}", i, files[i]));
  }
  return specs;
}

// The case's attributes as `tilecraft project run` reads them: lists comma-separated, booleans 1/0.
std::vector<std::string> attrSpecs(const std::string& attrsJson) {
  std::vector<std::string> specs;
  nlohmann::json attrs = nlohmann::json::parse(attrsJson, nullptr, false);
  if (!attrs.is_object()) return specs;
  for (const auto& [name, v] : attrs.items()) {
    if (v.is_null()) continue;
    std::string text;
    if (v.is_boolean()) {
      text = v.get<bool>() ? "1" : "0";
    } else if (v.is_string()) {
      text = v.get<std::string>();
    } else if (v.is_array()) {
      for (const nlohmann::json& e : v) text += (text.empty() ? "" : ",") + e.dump();
    } else {
      text = v.dump();
    }
    if (!text.empty()) specs.push_back(fmt::format("{}={}", name, text));
  }
  return specs;
}

std::string withoutPrefix(std::string text, const std::string& prefix) {
  for (size_t at = text.find(prefix); !prefix.empty() && at != std::string::npos; at = text.find(prefix, at)) {
    text.erase(at, prefix.size());
  }
  return text;
}

// The line a reader needs: the compiler's first error (FILE:LINE:COL: error: ...), else the first line.
std::string firstErrorLine(const std::string& text) {
  std::istringstream lines(text);
  std::string line, first;
  while (std::getline(lines, line)) {
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error:") != std::string::npos) return line;
  }
  return first;
}

}  // namespace

ProjectCaseRun runProjectCase(const Solution& solution, const Task& task, const Case& c,
                              const std::vector<NamedTensor>& inputs, const std::vector<NamedTensor>& golden,
                              const fs::path& workDir, bool trace, double timeoutSeconds,
                              runner::BuildRunService& service) {
  ProjectCaseRun result;
  project::ProjectOptions options;
  options.dir = solution.snippet.empty() ? solution.dir.string() : solution.snippet.string();
  options.inputs = positionalSpecs(inputs, task.inputs, workDir / "case" / "in");
  options.expects = positionalSpecs(golden, task.outputs, workDir / "case" / "golden");
  options.caseAttrs = attrSpecs(c.attrsJson);
  options.keepDir = (workDir / "project").string();
  options.timeoutSeconds = timeoutSeconds;
  options.trace = trace;
  std::ostringstream out, err;
  project::ProjectOutcome outcome;
  int status = project::runProject(options, service, out, err, &outcome);
  result.seconds = outcome.seconds;
  result.compiled = outcome.stage == Stage::KernelRun || outcome.stage == Stage::Finished;
  result.kernelFile = outcome.kernelFile;
  // Messages name the project's files from the solution folder, wherever the solutions are.
  std::string prefix = solution.dir.string() + (solution.dir.string().back() == '/' ? "" : "/");
  auto say = [&](const std::string& text) {
    std::string line = withoutPrefix(firstErrorLine(text), prefix);
    return line.size() > 400 ? line.substr(0, 400) + "..." : line;
  };
  switch (outcome.stage) {
    case Stage::Finished:
      result.tracePath = outcome.run.tracePath;
      for (const project::ProjectTensor& t : outcome.outputs) {
        if (t.output >= task.outputs.size()) continue;  // an output the task does not have: not judged
        std::string name = task.outputs[t.output].name;
        result.outputs.push_back({t.index < 0 ? name : fmt::format("{}.{}", name, t.index), t.tensor});
      }
      return result;
    case Stage::HostBuild:
    case Stage::KernelBuild:
      if (!outcome.diagnostics.empty()) {
        result.failure = classifyCompileError(outcome.diagnostics);
        result.message = say(outcome.diagnostics);
        return result;
      }
      break;
    case Stage::HostRun:
    case Stage::KernelRun:
      if (outcome.run.status != runner::RunStatus::Passed) {
        result.failure = classifyRun(outcome.run);
        result.message =
            say(outcome.run.status == runner::RunStatus::CheckFailed || outcome.run.err.empty() ? outcome.run.message
                                                                                                : outcome.run.err);
        return result;
      }
      break;
    case Stage::Unpack:
      result.failure = Failure::Syntax;
      result.message = say(err.str());
      return result;
    case Stage::Setup: break;
  }
  // A project the runner refuses (its layout, a dtype the OpDef does not take, an attribute with no value) or a
  // failure of its own; the message says which.
  std::string text = err.str();
  result.failure = text.find("takes no inputs") != std::string::npos ? Failure::Dtype : Failure::Signature;
  result.message = say(text.empty() ? fmt::format("tilecraft project run exited with status {}", status) : text);
  if (result.message.rfind("error: ", 0) == 0) result.message.erase(0, 7);
  return result;
}

}  // namespace tilecraft::harness
