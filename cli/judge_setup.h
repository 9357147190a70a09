// The harness's judge as the commands that judge one solution at a time start it (`tilecraft serve`, `mcp`,
// `agent`): the golden worker, the sandboxed build-and-run service, the arch spec, then service::HarnessJudge.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>

#include "harness/bench.h"
#include "harness/golden.h"
#include "runner/service.h"
#include "service/judge.h"
#include "service/judge_env.h"

namespace tilecraft::cli {

struct JudgeFlags {
  std::string suite = "tasks";
  std::string cacheDir;  // empty: defaultCacheDir()
  std::string workDir;   // empty: a temporary folder removed with the judge
  bool noSandbox = false;
  double timeoutSeconds = 60;  // per kernel run
  size_t verdictCache = 256;
};

struct StartedJudge {
  std::unique_ptr<service::JudgeEnvironment> environment;
  std::unique_ptr<service::HarnessJudge> judge;  // null when a part could not start
};

/// The judge the flags describe; `judge` is null after "error: ..." lines on `err` (no Python with torch, no
/// sandbox, a folder that cannot be made).
StartedJudge startJudge(const JudgeFlags& flags, std::ostream& err);

// What `tilecraft bench` and `project run --task` judge with: the golden worker (goldens cached in CACHE/goldens,
// its work in OUT/work/golden) and the build-and-run service (builds cached in CACHE/programs).
struct BenchParts {
  std::unique_ptr<harness::GoldenRunner> golden;
  std::unique_ptr<runner::BuildRunService> service;  // null when a part could not start
};

/// `cacheDir` empty: defaultCacheDir(). `service` is null after "error: ..." lines on `err` (no Python with torch,
/// a cache folder that cannot be made, no sandbox).
BenchParts startBenchParts(const std::string& cacheDir, const std::string& outDir, bool sandbox, std::ostream& err);

/// `tilecraft bench`'s run: the --out folder made, the parts started, progress drawn in place on a terminal, then
/// harness::runBench. Its exit status; 2 when the folder or a part could not be made.
int runBenchWithParts(harness::BenchOptions options, const std::string& cacheDir, bool sandbox, std::ostream& out,
                      std::ostream& err);

}  // namespace tilecraft::cli
