#include "cli/judge_setup.h"

#include <filesystem>
#include <ostream>

#include "cli/flags.h"
#include "harness/progress.h"

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

BenchParts startBenchParts(const std::string& cacheDir, const std::string& outDir, bool sandbox, std::ostream& err) {
  namespace fs = std::filesystem;
  BenchParts parts;
  std::string why;
  std::optional<std::string> python = harness::findTorchPython(&why);
  if (!python) {
    err << "error: " << why << '\n';
    return parts;
  }
  std::string cache = cacheDir.empty() ? defaultCacheDir() : cacheDir;
  if (!prepareOutputFolder("--cache", cache, err)) return parts;
  harness::PythonGoldenOptions goldenOptions;
  goldenOptions.python = *python;
  goldenOptions.cacheDir = fs::path(cache) / "goldens";
  goldenOptions.workDir = fs::path(outDir) / "work" / "golden";
  parts.golden = harness::makePythonGoldenRunner(goldenOptions);
  runner::ServiceOptions serviceOptions;
  serviceOptions.emuInclude = emulatorIncludeDir();
  serviceOptions.cacheDir = (fs::path(cache) / "programs").string();
  serviceOptions.sandbox = sandbox;
  parts.service = runner::startBuildRunService(serviceOptions, err);
  return parts;
}

int runBenchWithParts(harness::BenchOptions options, const std::string& cacheDir, bool sandbox, std::ostream& out,
                      std::ostream& err) {
  if (!prepareOutputFolder("--out", options.outDir, err)) return 2;
  BenchParts parts = startBenchParts(cacheDir, options.outDir, sandbox, err);
  if (!parts.service) return 2;
  options.terminal = harness::StderrProgressOutput::isTerminal();
  options.terminalWidth = harness::StderrProgressOutput::width();
  harness::BenchEnv env;
  env.service = parts.service.get();
  env.golden = parts.golden.get();
  return harness::runBench(options, env, out, err);
}

}  // namespace tilecraft::cli
