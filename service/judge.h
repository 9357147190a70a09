// Judging one submitted solution on one task, for the services (`tilecraft mcp`, `tilecraft serve`): the request a
// client sends (a task, a solution's files, optional case ids), the verdict it gets back, and HarnessJudge, which
// writes the files into a content-addressed folder and judges them with harness::judgeTask, the code `tilecraft
// bench` runs. Nothing here decides whether a kernel is right: that is the harness's job.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/bench.h"
#include "harness/judge.h"
#include "harness/record.h"
#include "perf/arch.h"

namespace tilecraft::service {

// A solution as a client sends it.
struct SubmittedSolution {
  std::string kind;                          // "dsl" or "ascendc"
  std::map<std::string, std::string> files;  // relative path -> text (a DSL solution: NAME.tile, binding.yaml)
};

struct JudgeRequest {
  std::string task;  // a task folder's name within the suite, or a path to a task folder inside the suite
  SubmittedSolution solution;
  std::vector<std::string> cases;  // case ids; empty: every case of the task
};

struct CaseVerdict {
  std::string caseId;
  bool compiled = false, correct = false;
  std::string failure;  // harness::failureName ("none" when correct)
  std::string message;
  double simUs = 0, eagerUs = 0, limitUs = 0;
  double speedup = 0;     // eager / simulated, 0 without timing
  double limitScore = 0;  // CANN Bench's per-case score, 0 when incorrect
  std::string bottleneck;
};

struct Verdict {
  std::string task;
  std::string kind;
  bool scored = false;    // false when no case could be judged (golden errors, not evaluable): no reward
  bool compiled = false;  // every judged case compiled
  bool correct = false;   // every judged case passed on both seeds
  int casesPassed = 0, casesTotal = 0;
  double speedup = 0;       // geometric mean over correct cases (harness::summarize)
  double limitScore = 0;    // mean over judged cases, 0 for an incorrect one (harness::summarize)
  double reward = 0;        // rewardOf(*this)
  std::string diagnostics;  // the first failing case's failure and message; empty when correct
  std::vector<CaseVerdict> cases;
  bool cached = false;  // the same request was judged before and its verdict reused
};

// A verdict, or why the request was refused before any judging (an unknown task or case, a bad file name).
struct JudgeOutcome {
  std::string error;
  Verdict verdict;
  bool ok() const { return error.empty(); }
};

// The scalar reward of a verdict (docs/services.md, "Reward"): -1 when it does not compile, 0 when it compiles
// but some case is wrong, 0.5 + 0.5 * limit score when every case is correct (0.75 at eager speed, 1 at the
// hardware limit), 0 when nothing could be scored.
double rewardOf(const Verdict& verdict);

// The verdict of the harness's rows for one solution.
Verdict verdictFromRows(const std::string& task, const std::string& kind, const std::vector<harness::Record>& rows);

// Checks that need no disk: the kind and every file name. "" when the solution is well-formed.
std::string checkSolution(const SubmittedSolution& solution);

// The task folder `task` names under `suiteRoot`: a folder name (the first match, sorted by path) or a path that
// lies inside the suite (so a client cannot make the golden worker run a golden.py from anywhere). nullopt with
// `error` set when there is none.
std::optional<std::filesystem::path> resolveTask(const std::filesystem::path& suiteRoot, const std::string& task,
                                                 std::string* error);

class Judge {
 public:
  virtual ~Judge() = default;
  // Safe to call from several threads at once.
  virtual JudgeOutcome judge(const JudgeRequest& request) = 0;
};

struct HarnessJudgeOptions {
  std::filesystem::path suiteRoot = "tasks";
  std::filesystem::path workDir;  // solutions and run folders, one per solution content hash
  harness::Rule rule = harness::Rule::Cann;
  uint64_t seed = 1;
  double timeoutSeconds = 60;        // per kernel run
  size_t verdictCacheEntries = 256;  // 0: judge every request afresh
};

// Judges through harness::judgeTask with the given build-and-run service and golden runner (env), which must
// outlive it.
class HarnessJudge final : public Judge {
 public:
  HarnessJudge(HarnessJudgeOptions options, harness::BenchEnv env, perf::ArchSpec arch);
  ~HarnessJudge() override;
  JudgeOutcome judge(const JudgeRequest& request) override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The hex SHA-256 of `parts`, each length-prefixed (so ("ab", "c") and ("a", "bc") differ).
std::string contentHash(const std::vector<std::string>& parts);

}  // namespace tilecraft::service
