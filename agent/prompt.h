// The text a model sees (AscendCraft's recipe): a system message with the condensed language reference and the
// hardware facts that matter, a task message with the operator, its cases, its PyTorch golden and two or three
// expert solutions of the same category, and after each attempt a feedback message made from its verdict. AscendC
// mode (MultiKernelBench's baseline) has the AscendC and host API in place of the language and one worked example.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "agent/loop.h"
#include "harness/task.h"
#include "perf/arch.h"
#include "service/judge.h"

namespace tilecraft::agent {

/// The sections of the language reference a kernel author needs (the syntax, the semantics, the builtins, the
/// examples), whole, in the reference's order; the diagnostics catalogue, the limits and what the compiler owns are
/// left out. Throws std::runtime_error when the reference lacks one of them: the prompt and docs/language.md must
/// not drift apart silently.
std::string condensedLanguageReference(std::string_view languageMarkdown);

/// The figures of `arch` a kernel's shape depends on: cores, on-chip sizes and alignment, bandwidths.
std::string hardwareFacts(const perf::ArchSpec& arch);

struct ExpertExample {
  std::string task;                          // the task it solves
  std::string category;                      // that task's category
  std::map<std::string, std::string> files;  // NAME.tile -> text
  double score = 0;                          // how close it is to the task asked (higher is closer)
};

/// Expert solutions from `solutionsRoot` (a solutions folder: TASK/NAME.tile) of the tasks under `suiteRoot`, best
/// first, at most `count`, never the task itself: the same category scores 4, the same level 1, and the inputs'
/// ranks of the first cases 1 per input of equal rank. Ties go to the task name, so the choice is deterministic.
std::vector<ExpertExample> pickExamples(const harness::Task& task, const std::filesystem::path& suiteRoot,
                                        const std::filesystem::path& solutionsRoot, int count);

/// The system message of the DSL mode.
std::string systemPrompt(std::string_view reference, std::string_view hardware);

/// The first user message: the task (desc, signature, cases, the golden's source) and the examples.
std::string taskPrompt(const harness::Task& task, std::string_view goldenSource,
                       const std::vector<ExpertExample>& examples, size_t maxCases = 12);

/// AscendC mode: the API the emulator provides and the host API of a project (docs/emulator.md §3, docs/projects.md
/// §1), whole. Throws std::runtime_error when a guide lacks its section, so that prompt and docs cannot drift apart.
std::string ascendcReference(std::string_view emulatorMarkdown, std::string_view projectsMarkdown);

/// The system message of the AscendC mode: MultiKernelBench's six-string format, the API, the hardware.
std::string ascendcSystemPrompt(std::string_view reference, std::string_view hardware);

/// The first user message of the AscendC mode: the task as in taskPrompt, and one worked example submission.
std::string ascendcTaskPrompt(const harness::Task& task, std::string_view goldenSource, std::string_view example,
                              size_t maxCases = 12);

/// The feedback for an attempt the compiler refused: its diagnostics as the compiler prints them, with hints.
std::string compileFeedback(std::string_view diagnostics);
/// The feedback for a reply without a usable program (extract.h's problem).
std::string formatFeedback(std::string_view problem, Mode mode = Mode::Dsl);
/// The feedback for a judged attempt: the first wrong case with its figures and first wrong positions, or, when
/// every case is right but slow, the profile (bottleneck pipe, simulated vs limit time) and a request to speed up.
std::string verdictFeedback(const service::Verdict& verdict, double targetLimitScore);

}  // namespace tilecraft::agent
