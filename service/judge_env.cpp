#include "service/judge_env.h"

#include <stdlib.h>

#include <ostream>

#include "perf/error.h"
#include "support/files.h"

namespace tilecraft::service {

namespace fs = std::filesystem;

JudgeEnvironment::~JudgeEnvironment() {
  golden_.reset();
  service_.reset();
  std::error_code ec;
  if (temporary_) fs::remove_all(workDir_, ec);
}

std::unique_ptr<JudgeEnvironment> startJudgeEnvironment(const JudgeEnvironmentOptions& options, std::ostream& err) {
  std::unique_ptr<JudgeEnvironment> e(new JudgeEnvironment());
  std::string error;
  if (options.workDir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = (fs::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") / "tilecraft-serve-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      err << "error: cannot make a work folder " << pattern << '\n';
      return nullptr;
    }
    e->workDir_ = pattern;
    e->temporary_ = true;
  } else {
    if (!support::prepareOutputFolder(options.workDir, &error)) {
      err << "error: --work " << options.workDir << ": " << error << '\n';
      return nullptr;
    }
    e->workDir_ = fs::absolute(options.workDir).lexically_normal();
  }
  if (!support::prepareOutputFolder(options.cacheDir, &error)) {
    err << "error: --cache " << options.cacheDir << ": " << error << '\n';
    return nullptr;
  }
  try {
    e->arch_ = perf::loadArchByName("910b2", perf::defaultArchDir());
  } catch (const perf::PerfError& x) {
    err << "error: " << x.what() << '\n';
    return nullptr;
  }
  std::string why;
  std::optional<std::string> python = harness::findTorchPython(&why);
  if (!python) {
    err << "error: " << why << '\n';
    return nullptr;
  }
  harness::PythonGoldenOptions golden;
  golden.python = *python;
  golden.cacheDir = fs::path(options.cacheDir) / "goldens";
  golden.workDir = e->workDir_ / "golden";
  e->golden_ = harness::makePythonGoldenRunner(golden);
  runner::ServiceOptions service;
  service.emuInclude = options.emuInclude;
  service.cacheDir = (fs::path(options.cacheDir) / "programs").string();
  service.sandbox = options.sandbox;
  e->service_ = runner::startBuildRunService(service, err);
  if (!e->service_) return nullptr;
  return e;
}

}  // namespace tilecraft::service
