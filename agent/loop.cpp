#include "agent/loop.h"

#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "agent/extract.h"
#include "agent/fix_memory.h"
#include "agent/prompt.h"
#include "codegen/driver.h"
#include "project/snippet.h"
#include "support/files.h"

namespace tilecraft::agent {

const char* stageName(Stage stage) {
  switch (stage) {
    case Stage::Transport: return "transport";
    case Stage::Format: return "format";
    case Stage::Compile: return "compile";
    case Stage::Judged: return "judged";
  }
  return "?";
}

const char* modeName(Mode mode) { return mode == Mode::Dsl ? "dsl" : "ascendc"; }

std::string SubmissionChecker::check(const std::map<std::string, std::string>& files) {
  std::string all;
  for (const auto& [name, text] : files) {
    project::Submission submission;
    std::string error;
    if (!project::readSubmission(name, text, submission, error)) all += error + "\n";
  }
  return all;
}

std::string CompilerChecker::check(const std::map<std::string, std::string>& files) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(workDir_) / fmt::format("check-{}", next_++);
  std::string error;
  if (!support::prepareOutputFolder(dir, &error)) return "error: " + error + "\n";
  std::string all;
  for (const auto& [name, text] : files) {
    fs::path file = dir / name;
    if (!support::writeFileAtomically(file, text, &error)) return "error: " + error + "\n";
    codegen::AscendCOptions options;
    // The diagnostics name the file as the model named it, not the work folder.
    options.file = file.string();
    // A generic program is checked in every instantiation, as `tilecraft compile` does; the judge binds one per case.
    options.everyInstantiation = true;
    std::string code, kernel;
    std::ostringstream err;
    if (codegen::compileToAscendC(options, code, kernel, err) != 0) {
      std::string text = err.str();
      std::string prefix = file.string();
      for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + name.size())) {
        text.replace(at, prefix.size(), name);
      }
      all += text;
    }
  }
  return all;
}

namespace {

// The kept attempt is better than `than` if it is correct and faster, or correct where `than` is not.
bool better(const Attempt& a, const Attempt* than) {
  if (!a.correct()) return false;
  return !than || !than->correct() || a.verdict.limitScore > than->verdict.limitScore;
}

}  // namespace

SampleOutcome runSample(const TaskPrompts& prompts, int sample, llm::ChatClient& model, service::Judge& judge,
                        ProgramChecker& checker, const AgentOptions& options,
                        const std::function<void(const Attempt&)>& onAttempt) {
  SampleOutcome out;
  out.mode = options.mode;
  out.task = prompts.task;
  out.sample = sample;
  std::vector<llm::ChatMessage> messages = {{"system", prompts.system}, {"user", prompts.user}};
  std::optional<Attempt> best, last;
  for (int round = 0; round < options.rounds; ++round) {
    Attempt a;
    a.mode = options.mode;
    a.task = prompts.task;
    a.sample = sample;
    a.round = round;
    a.messages = messages;
    llm::ChatRequest request;
    request.model = options.model;
    request.messages = messages;
    request.temperature = options.temperature;
    request.maxTokens = options.maxTokens;
    request.seed = options.seed + static_cast<uint64_t>(sample);
    llm::ChatResult result = model.complete(request);
    ++out.rounds;
    if (!result) {
      a.stage = Stage::Transport;
      a.error = result.error.message;
      a.httpAttempts = result.error.attempts;
      out.error = a.error;
      onAttempt(a);
      break;
    }
    const llm::ChatReply& reply = *result.reply;
    a.reply = reply.choices.front().content;
    a.reasoning = reply.choices.front().reasoning;
    a.finishReason = reply.choices.front().finishReason;
    a.model = reply.model;
    a.promptTokens = reply.usage.promptTokens;
    a.completionTokens = reply.usage.completionTokens;
    a.seconds = reply.elapsed;
    a.httpAttempts = reply.attempts;
    out.promptTokens += a.promptTokens;
    out.completionTokens += a.completionTokens;
    out.seconds += a.seconds;

    ExtractedProgram program = options.mode == Mode::Dsl ? extractProgram(a.reply) : extractSubmission(a.reply);
    if (program.files.empty()) {
      a.stage = Stage::Format;
      a.error = program.problem;
      a.feedback = formatFeedback(program.problem, options.mode);
    } else {
      a.files = program.files;
      std::string diagnostics = checker.check(program.files);
      if (!diagnostics.empty()) {
        a.stage = Stage::Compile;
        a.error = diagnostics;
        a.feedback = compileFeedback(diagnostics);
      } else {
        a.stage = Stage::Judged;
        service::JudgeRequest jr;
        jr.task = prompts.task;
        jr.solution.kind = modeName(options.mode);
        jr.solution.files = program.files;
        service::JudgeOutcome judged = judge.judge(jr);
        if (!judged.ok()) {
          // The request itself was refused (an unknown task): no round can fix that.
          a.error = judged.error;
          out.error = judged.error;
          onAttempt(a);
          break;
        }
        a.verdict = judged.verdict;
        a.feedback = verdictFeedback(a.verdict, options.targetLimitScore);
      }
    }
    if (options.memory != nullptr) {
      AttemptFailure failure = failureOf(a);
      if (!failure.kind.empty()) {
        a.feedback += memoryHint(options.memory->closest(failureSignature(failure.text), modeName(options.mode), 3));
      }
    }
    bool done = a.correct() && a.verdict.limitScore >= options.targetLimitScore;
    bool finalRound = done || round + 1 == options.rounds;
    if (finalRound) a.feedback.clear();
    if (!a.files.empty()) {
      if (better(a, best ? &*best : nullptr)) best = a;
      last = a;
    }
    out.compiled = out.compiled || a.compiled();
    onAttempt(a);
    if (finalRound) break;
    messages.push_back({"assistant", a.reply});
    messages.push_back({"user", a.feedback});
  }
  const std::optional<Attempt>& kept = best ? best : last;
  if (kept) {
    out.bestRound = kept->round;
    out.files = kept->files;
    out.correct = kept->correct();
    out.limitScore = kept->correct() ? kept->verdict.limitScore : 0;
    out.speedup = kept->correct() ? kept->verdict.speedup : 0;
  }
  return out;
}

}  // namespace tilecraft::agent
