// One sample of the agent (AscendCraft's loop with AscendKernelGen's execution feedback): ask the model for a
// program (Tile DSL, or in AscendC mode a custom operator), then up to `rounds - 1` repairs, each told what the last
// attempt earned (the compiler's diagnostics, the first wrong case, or the profile of a correct but slow kernel).
// The best correct attempt wins.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "llm/chat.h"
#include "service/judge.h"

namespace tilecraft::agent {

// What the model writes: Tile DSL programs (AscendCraft's way), or whole AscendC custom operators in
// MultiKernelBench's six-string format (the seeds' baseline), so that the two compare on one model and suite.
enum class Mode { Dsl, AscendC };
const char* modeName(Mode mode);

class FixMemory;

struct AgentOptions {
  Mode mode = Mode::Dsl;
  const FixMemory* memory = nullptr;  // the fixes a repair request may carry (fix_memory.h); null: none
  int rounds = 4;                     // attempts per sample, the first included
  double targetLimitScore = 0.8;      // a correct attempt at or above it ends the sample
  std::string model;                  // empty: the endpoint's
  std::optional<double> temperature;
  std::optional<int64_t> maxTokens;
  uint64_t seed = 1;  // sample s asks with seed + s, so samples differ and a rerun repeats them
};

/// The front end, lowering and emitter on a program's files (every instantiation of a generic one), as `tilecraft
/// compile` runs them: "" when every file compiles, else their diagnostics as the compiler prints them
/// (FILE:LINE:COL, the line, the hint).
class ProgramChecker {
 public:
  virtual ~ProgramChecker() = default;
  virtual std::string check(const std::map<std::string, std::string>& files) = 0;
};

/// The real checker: writes the files into `workDir` and compiles each in-process.
class CompilerChecker final : public ProgramChecker {
 public:
  explicit CompilerChecker(std::string workDir) : workDir_(std::move(workDir)) {}
  std::string check(const std::map<std::string, std::string>& files) override;

 private:
  std::string workDir_;
  int next_ = 0;
};

/// AscendC mode's check before judging: each submission read as six strings without running it
/// (project/snippet.h), its messages at the snippet's lines; the build itself is the judge's.
class SubmissionChecker final : public ProgramChecker {
 public:
  std::string check(const std::map<std::string, std::string>& files) override;
};

// Where an attempt ended.
enum class Stage { Transport, Format, Compile, Judged };
const char* stageName(Stage stage);

struct Attempt {
  Mode mode = Mode::Dsl;
  std::string task;
  int sample = 0, round = 0;
  std::vector<llm::ChatMessage> messages;  // what the model was sent
  std::string reply, reasoning, finishReason, model;
  std::map<std::string, std::string> files;  // the program it held
  Stage stage = Stage::Transport;
  std::string error;         // the transport error, the format problem or the compile diagnostics
  service::Verdict verdict;  // when judged
  std::string feedback;      // what the next round is told; empty after the last
  int64_t promptTokens = 0, completionTokens = 0;
  double seconds = 0;
  int httpAttempts = 0;
  bool compiled() const { return stage == Stage::Judged && verdict.compiled; }
  bool correct() const { return stage == Stage::Judged && verdict.correct; }
};

struct SampleOutcome {
  Mode mode = Mode::Dsl;
  std::string task;
  int sample = 0;
  int rounds = 0;      // attempts made
  int bestRound = -1;  // the attempt whose program is kept; -1 when no attempt held one
  bool compiled = false, correct = false;
  double limitScore = 0, speedup = 0;
  std::map<std::string, std::string> files;  // the kept program: the best correct one, else the last one
  int64_t promptTokens = 0, completionTokens = 0;
  double seconds = 0;      // the model's time
  double wallSeconds = 0;  // the whole sample's, judging included (set by runAgent)
  std::string error;       // why the sample stopped early (a final transport error)
};

struct TaskPrompts {
  std::string task;  // the name the judge knows it by
  std::string system, user;
};

/// Runs one sample; `onAttempt` sees every attempt as it ends (the transcript writer).
SampleOutcome runSample(const TaskPrompts& prompts, int sample, llm::ChatClient& model, service::Judge& judge,
                        ProgramChecker& checker, const AgentOptions& options,
                        const std::function<void(const Attempt&)>& onAttempt);

}  // namespace tilecraft::agent
