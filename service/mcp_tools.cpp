#include "service/mcp_tools.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "codegen/driver.h"
#include "harness/task.h"
#include "service/language_reference.h"
#include "service/verdict_json.h"
#include "support/files.h"

namespace tilecraft::service {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A show_task file beyond this is cut (a CANN Bench cases file can run to thousands of rows).
constexpr size_t kMaxFileText = 32 * 1024;

std::string relativeTo(const fs::path& path, const fs::path& root) {
  std::error_code ec;
  fs::path rel = fs::relative(path, fs::weakly_canonical(root, ec), ec);
  return ec ? path.string() : rel.generic_string();
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); !from.empty() && at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The schema of a judge request's arguments, shared by run_solution and bench_solution.
const char* kSolutionSchema = R"json({
  "type": "object",
  "properties": {
    "task": {"type": "string", "description": "A task name from list_tasks, or a task folder inside the suite"},
    "kind": {"type": "string", "enum": ["dsl", "ascendc"], "description": "The solution's kind (default dsl)"},
    "source": {"type": "string", "description": "A DSL solution: the .tile kernel's text"},
    "files": {"type": "object", "additionalProperties": {"type": "string"},
              "description": "Instead of source: files by relative path (NAME.tile and binding.yaml for dsl; op_host/*.cpp and op_kernel/*.cpp for ascendc)"},
    "cases": {"type": "array", "items": {"type": ["string", "integer"]},
              "description": "Case ids to run (default: every case)"}
  },
  "required": ["task"],
  "additionalProperties": false
})json";

struct Tools {
  ToolContext context;

  ToolResult listTasks(const json& args) const {
    fs::path folder = context.suiteRoot;
    if (args.contains("folder")) folder /= args["folder"].get<std::string>();
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(folder, ec);
    fs::path root = fs::weakly_canonical(context.suiteRoot, ec);
    auto [end, at] = std::mismatch(root.begin(), root.end(), canonical.begin(), canonical.end());
    if (end != root.end() || !fs::is_directory(canonical)) {
      return {fmt::format("folder '{}' is not a folder inside the suite {}", args.value("folder", ""),
                          context.suiteRoot.string()),
              true};
    }
    std::string category = args.value("category", "");
    json tasks = json::array();
    for (const fs::path& dir : harness::findTaskDirs(canonical)) {
      harness::TaskLoad load = harness::loadTask(dir);
      json t = {{"task", dir.filename().string()}, {"folder", relativeTo(dir, context.suiteRoot)}};
      if (load.task) {
        if (!category.empty() && load.task->category != category) continue;
        if (args.contains("level") && load.task->level != args["level"].get<int>()) continue;
        t.update({{"operator", load.task->op},
                  {"category", load.task->category},
                  {"level", load.task->level},
                  {"cases", load.task->cases.size()}});
      } else {
        if (!category.empty() || args.contains("level")) continue;
        t["error"] = load.errors.empty() ? "does not load" : load.errors.front().str();
      }
      tasks.push_back(t);
    }
    return {json{{"tasks", tasks}}.dump(2, ' ', false, json::error_handler_t::replace), false};
  }

  ToolResult showTask(const json& args) const {
    std::string error;
    std::optional<fs::path> dir = resolveTask(context.suiteRoot, args["task"].get<std::string>(), &error);
    if (!dir) return {error, true};
    harness::TaskLoad load = harness::loadTask(*dir);
    std::ostringstream out;
    out << fmt::format("# Task {} ({})\n", dir->filename().string(), relativeTo(*dir, context.suiteRoot));
    if (load.task) {
      const harness::Task& t = *load.task;
      out << fmt::format("operator {}, category {}, level {}, {} cases; golden function {}\n", t.op, t.category,
                         t.level, t.cases.size(), t.goldenFunction);
    }
    for (const harness::TaskError& e : load.errors) out << relativeTo(e.file, *dir) << ": " << e.str() << '\n';
    for (const char* name :
         {"desc.md", "proto.yaml", "cases.yaml", "cases.yml", "cases.csv", "golden.py", "inputs.py"}) {
      std::optional<std::string> text = support::readFile(*dir / name);
      if (!text) continue;
      bool cut = text->size() > kMaxFileText;
      if (cut) text->resize(kMaxFileText);
      out << fmt::format("\n## {}\n\n```\n{}{}```\n", name, *text, cut ? "\n... (cut)\n" : "");
    }
    return {out.str(), false};
  }

  ToolResult judgeTool(const json& args, bool metrics) const {
    json request = {{"task", args["task"]}};
    json solution = {{"kind", args.value("kind", "dsl")}};
    if (args.contains("source")) solution["source"] = args["source"];
    if (args.contains("files")) solution["files"] = args["files"];
    request["solution"] = solution;
    if (args.contains("cases")) request["cases"] = args["cases"];
    JudgeRequest parsed;
    std::string error;
    if (!parseJudgeRequest(request.dump(), &parsed, &error)) return {error, true};
    JudgeOutcome outcome = context.judge->judge(parsed);
    if (!outcome.ok()) return {outcome.error, true};
    json verdict = json::parse(verdictToJson(outcome.verdict, true));
    if (!metrics) {
      // run_solution: what passed and why not; bench_solution: the figures.
      for (json& c : verdict["cases"]) {
        for (const char* key : {"sim_us", "eager_us", "limit_us", "speedup", "limit_score", "bottleneck"}) c.erase(key);
      }
      for (const char* key : {"speedup", "limit_score", "reward"}) verdict.erase(key);
    }
    return {verdict.dump(2, ' ', false, json::error_handler_t::replace), false};
  }

  ToolResult checkProgramTool(const json& args) const {
    return {
        checkProgram(args["source"].get<std::string>(), args.value("file_name", "program.tile"), context.scratchDir),
        false};
  }

  ToolResult languageReference(const json& args) const {
    if (!args.contains("section")) return {std::string(languageReferenceText()), false};
    std::string key = args["section"].is_string() ? args["section"].get<std::string>() : args["section"].dump();
    std::optional<DocSection> section = findSection(languageReferenceText(), key);
    if (!section) {
      std::string titles;
      for (const DocSection& s : splitSections(languageReferenceText())) {
        titles += fmt::format("\n{}{}{}", s.number, s.number.empty() ? "" : ". ", s.title);
      }
      return {fmt::format("no section '{}' in the language reference; its sections:{}", key, titles), true};
    }
    return {section->text, false};
  }
};

McpTool tool(const char* name, const char* title, const char* description, const char* schema,
             std::function<ToolResult(const json&)> call) {
  return {name, title, description, schema,
          [call](const std::string& arguments) { return call(json::parse(arguments)); }};
}

}  // namespace

std::string checkProgram(const std::string& source, const std::string& fileName, const fs::path& scratchDir) {
  std::string leaf = fs::path(fileName).filename().string();
  if (leaf.empty() || leaf == "." || leaf == "..") leaf = "program.tile";
  fs::path dir = scratchDir / contentHash({leaf, source}).substr(0, 24);
  fs::create_directories(dir);
  std::string error;
  if (!support::writeFileAtomically(dir / leaf, source, &error)) throw std::runtime_error(error);
  std::string code, kernelName;
  std::ostringstream diagnostics;
  // A generic program is checked in every instantiation, as `tilecraft compile` does.
  int status = codegen::compileToAscendC({(dir / leaf).string(), "json", {}, {}, true}, code, kernelName, diagnostics);
  std::string text = replaceAll(diagnostics.str(), (dir / "").string(), "");
  json result = {{"ok", status == 0}, {"file", leaf}};
  if (status == 0) result["kernel"] = kernelName;
  json parsed = json::parse(text, nullptr, false);
  if (!parsed.is_discarded() && parsed.is_object()) {
    result.update(parsed);
  } else {
    result["diagnostics"] = json::array();
    if (!text.empty()) result["message"] = text;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return result.dump(2, ' ', false, json::error_handler_t::replace);
}

std::vector<McpTool> makeTilecraftTools(const ToolContext& context) {
  auto tools = std::make_shared<Tools>(Tools{context});
  std::vector<McpTool> list;
  list.push_back(tool("list_tasks", "List tasks",
                      "The tasks of the suite (or of one folder in it): name, operator, category, level, case count.",
                      R"json({"type": "object", "properties": {
                            "folder": {"type": "string", "description": "A folder inside the suite, e.g. level1"},
                            "category": {"type": "string", "description": "Only this category, e.g. Elementwise"},
                            "level": {"type": "integer", "description": "Only this level (1-5)"}},
                          "additionalProperties": false})json",
                      [tools](const json& a) { return tools->listTasks(a); }));
  list.push_back(tool("show_task", "Show a task",
                      "A task's description, proto.yaml (inputs, outputs, dtypes, attributes), cases and golden.py.",
                      R"json({"type": "object", "properties": {
                            "task": {"type": "string", "description": "A task name from list_tasks"}},
                          "required": ["task"], "additionalProperties": false})json",
                      [tools](const json& a) { return tools->showTask(a); }));
  list.push_back(tool("check_program", "Check a Tile DSL program",
                      "Compiles a Tile DSL program through the whole pipeline (front end, lowering, passes, "
                      "AscendC emitter) without running it; returns ok and the compiler's JSON diagnostics (file, "
                      "line, column, end, message, notes, hint).",
                      R"json({"type": "object", "properties": {
                            "source": {"type": "string", "description": "The .tile program's text"},
                            "file_name": {"type": "string", "description": "The name diagnostics use (default program.tile)"}},
                          "required": ["source"], "additionalProperties": false})json",
                      [tools](const json& a) { return tools->checkProgramTool(a); }));
  list.push_back(tool("run_solution", "Run a solution on a task",
                      "Judges a solution as tilecraft bench does (sandboxed build and run on the emulator, two "
                      "input seeds, the task's golden): compiled, correct, and per case the failure class and "
                      "message.",
                      kSolutionSchema, [tools](const json& a) { return tools->judgeTool(a, false); }));
  list.push_back(tool("bench_solution", "Benchmark a solution on a task",
                      "The run_solution verdict with the figures: per case the simulated 910B2 time, eager and "
                      "hardware-limit references, speedup, limit score and bottleneck pipe; overall the "
                      "geometric-mean speedup, mean limit score and the reward.",
                      kSolutionSchema, [tools](const json& a) { return tools->judgeTool(a, true); }));
  list.push_back(tool("language_reference", "Tile DSL reference",
                      "The Tile DSL language reference (docs/language.md), whole or one section by number or title.",
                      R"json({"type": "object", "properties": {
                            "section": {"type": ["string", "integer"], "description": "A section number (7) or part of a title (Data movement)"}},
                          "additionalProperties": false})json",
                      [tools](const json& a) { return tools->languageReference(a); }));
  return list;
}

}  // namespace tilecraft::service
