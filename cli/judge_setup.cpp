#include "cli/judge_setup.h"

#include "cli/flags.h"

namespace tilecraft::cli {

StartedJudge startJudge(const JudgeFlags& flags, std::ostream& err) {
  StartedJudge started;
  service::JudgeEnvironmentOptions envOptions;
  envOptions.cacheDir = flags.cacheDir.empty() ? defaultCacheDir() : flags.cacheDir;
  envOptions.workDir = flags.workDir;
  envOptions.emuInclude = emulatorIncludeDir();
  envOptions.sandbox = !flags.noSandbox;
  started.environment = service::startJudgeEnvironment(envOptions, err);
  if (!started.environment) return started;
  service::HarnessJudgeOptions judgeOptions;
  judgeOptions.suiteRoot = flags.suite;
  judgeOptions.workDir = started.environment->workDir();
  judgeOptions.timeoutSeconds = flags.timeoutSeconds;
  judgeOptions.verdictCacheEntries = flags.verdictCache;
  const service::JudgeEnvironment& env = *started.environment;
  started.judge = std::make_unique<service::HarnessJudge>(judgeOptions, env.env(), env.arch());
  return started;
}

}  // namespace tilecraft::cli
