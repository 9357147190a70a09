#include "agent/run.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "agent/prompt.h"
#include "harness/task.h"
#include "project/snippet.h"
#include "service/language_reference.h"
#include "support/files.h"

namespace tilecraft::agent {
namespace fs = std::filesystem;
using nlohmann::json;

std::string attemptJson(const Attempt& a) {
  json messages = json::array();
  for (const llm::ChatMessage& m : a.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  json j = {{"type", "attempt"},
            {"mode", modeName(a.mode)},
            {"task", a.task},
            {"sample", a.sample},
            {"round", a.round},
            {"messages", messages},
            {"reply", a.reply},
            {"reasoning", a.reasoning},
            {"finish_reason", a.finishReason},
            {"model", a.model},
            {"files", a.files},
            {"stage", stageName(a.stage)},
            {"error", a.error},
            {"feedback", a.feedback},
            {"compiled", a.compiled()},
            {"correct", a.correct()},
            {"prompt_tokens", a.promptTokens},
            {"completion_tokens", a.completionTokens},
            {"seconds", a.seconds},
            {"http_attempts", a.httpAttempts}};
  if (a.stage == Stage::Judged) {
    const service::Verdict& v = a.verdict;
    json cases = json::array();
    for (const service::CaseVerdict& c : v.cases) {
      cases.push_back({{"case", c.caseId},
                       {"correct", c.correct},
                       {"failure", c.failure},
                       {"message", c.message},
                       {"sim_us", c.simUs},
                       {"limit_us", c.limitUs},
                       {"speedup", c.speedup},
                       {"limit_score", c.limitScore},
                       {"bottleneck", c.bottleneck}});
    }
    j["verdict"] = {{"cases_passed", v.casesPassed},
                    {"cases_total", v.casesTotal},
                    {"speedup", v.speedup},
                    {"limit_score", v.limitScore},
                    {"reward", v.reward},
                    {"diagnostics", v.diagnostics},
                    {"cases", cases}};
  }
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string sampleJson(const SampleOutcome& s) {
  json j = {{"type", "sample"},
            {"mode", modeName(s.mode)},
            {"task", s.task},
            {"sample", s.sample},
            {"rounds", s.rounds},
            {"best_round", s.bestRound},
            {"compiled", s.compiled},
            {"correct", s.correct},
            {"limit_score", s.limitScore},
            {"speedup", s.speedup},
            {"prompt_tokens", s.promptTokens},
            {"completion_tokens", s.completionTokens},
            {"seconds", s.seconds},
            {"wall_seconds", s.wallSeconds},
            {"error", s.error}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::set<std::pair<std::string, int>> finishedSamples(const fs::path& transcripts) {
  std::set<std::pair<std::string, int>> done;
  std::ifstream in(transcripts);
  std::string line;
  while (std::getline(in, line)) {
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("type", "") != "sample") continue;
    if (!j.contains("task") || !j["task"].is_string() || !j.contains("sample") || !j["sample"].is_number_integer()) {
      continue;
    }
    done.insert({j["task"].get<std::string>(), j["sample"].get<int>()});
  }
  return done;
}

namespace {

bool appendLine(const fs::path& file, const std::string& line, std::ostream& err) {
  std::ofstream out(file, std::ios::app);
  out << line << '\n';
  out.flush();
  if (!out) {
    err << fmt::format("error: cannot append to {}\n", file.string());
    return false;
  }
  return true;
}

bool writeSolution(const fs::path& dir, const SampleOutcome& s, std::ostream& err) {
  std::string error;
  if (!support::prepareOutputFolder(dir, &error)) {
    err << "error: " << error << '\n';
    return false;
  }
  for (const auto& [name, text] : s.files) {
    if (!support::writeFileAtomically(dir / name, text, &error)) {
      err << "error: " << error << '\n';
      return false;
    }
  }
  return true;
}

}  // namespace

int runAgent(const RunOptions& options, llm::ChatClient& model, service::Judge& judge, ProgramChecker& checker,
             const perf::ArchSpec& arch, std::ostream& out, std::ostream& err) {
  if (options.samples < 1 || options.agent.rounds < 1) {
    err << "error: --samples and --rounds must be at least 1\n";
    return 2;
  }
  std::vector<fs::path> dirs = harness::findTaskDirs(options.suite);
  if (dirs.empty()) {
    err << fmt::format("error: {}: no task folders (folders holding proto.yaml)\n", options.suite.string());
    return 2;
  }
  if (!options.resume && fs::exists(options.outDir / "transcripts.jsonl")) {
    err << fmt::format(
        "error: {} already holds transcripts.jsonl\nhint: --resume continues it, or choose another "
        "--out\n",
        options.outDir.string());
    return 2;
  }
  fs::create_directories(options.outDir);
  fs::path transcripts = options.outDir / "transcripts.jsonl";
  std::set<std::pair<std::string, int>> done = finishedSamples(transcripts);
  llm::SystemClock systemClock;
  llm::Clock& clock = options.clock != nullptr ? *options.clock : systemClock;
  bool dsl = options.agent.mode == Mode::Dsl;
  std::string system, example;
  if (dsl) {
    system = systemPrompt(condensedLanguageReference(service::languageReferenceText()), hardwareFacts(arch));
  } else {
    system = ascendcSystemPrompt(ascendcReference(service::emulatorGuideText(), service::projectsGuideText()),
                                 hardwareFacts(arch));
    std::string error;
    if (!options.ascendcExample.empty() && !project::packSubmission(options.ascendcExample, example, error)) {
      err << error << '\n';
      return 2;
    }
  }
  int status = 0;
  out << fmt::format("{:<24} {:>6} {:>7} {:>8} {:>8} {:>6} {:>9}\n", "task", "sample", "rounds", "compiled", "correct",
                     "limit", "tokens");
  for (const fs::path& dir : dirs) {
    harness::TaskLoad load = harness::loadTask(dir);
    if (!load.task) {
      for (const harness::TaskError& e : load.errors) err << e.str() << '\n';
      status = 1;
      continue;
    }
    const harness::Task& task = *load.task;
    if (!options.only.empty() && std::find(options.only.begin(), options.only.end(), task.name) == options.only.end()) {
      continue;
    }
    std::string golden = support::readFile(task.dir / "golden.py").value_or("");
    std::string user;
    if (dsl) {
      std::vector<ExpertExample> examples =
          options.examples.empty() ? std::vector<ExpertExample>{}
                                   : pickExamples(task, options.suite, options.examples, options.exampleCount);
      user = taskPrompt(task, golden, examples);
    } else {
      // The worked example is never shown to the task it solves.
      user = ascendcTaskPrompt(task, golden, task.name == options.ascendcExampleTask ? "" : example);
    }
    TaskPrompts prompts{task.name, system, user};
    for (int s = 0; s < options.samples; ++s) {
      if (done.count({task.name, s})) continue;
      bool written = true;
      double started = clock.now();
      SampleOutcome outcome = runSample(prompts, s, model, judge, checker, options.agent, [&](const Attempt& a) {
        written = appendLine(transcripts, attemptJson(a), err) && written;
      });
      outcome.wallSeconds = clock.now() - started;
      if (!outcome.files.empty()) {
        written = writeSolution(options.outDir / "solutions" / task.name / std::to_string(s), outcome, err) && written;
      }
      if (!outcome.error.empty()) {
        err << fmt::format("{} sample {} round {}: {}\n", task.name, s, outcome.rounds - 1, outcome.error);
        status = 1;
      } else if (written) {
        // Only a sample that ran to its end is finished: one cut by a transport error runs again on --resume.
        written = appendLine(transcripts, sampleJson(outcome), err);
      }
      if (!written) status = 1;
      out << fmt::format("{:<24} {:>6} {:>7} {:>8} {:>8} {:>6.2f} {:>9}\n", task.name, s, outcome.rounds,
                         outcome.compiled ? "yes" : "no", outcome.correct ? "yes" : "no", outcome.limitScore,
                         outcome.promptTokens + outcome.completionTokens);
    }
  }
  return status;
}

}  // namespace tilecraft::agent
