// The harness's judge as the commands that judge one solution at a time start it (`tilecraft serve`, `mcp`,
// `agent`): the golden worker, the sandboxed build-and-run service, the arch spec, then service::HarnessJudge.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>

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

}  // namespace tilecraft::cli
