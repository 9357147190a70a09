// `tilecraft mcp`: a Model Context Protocol server on stdin/stdout (service/mcp.h), so a coding agent can list and
// read tasks, check DSL programs, judge solutions and read the language reference. stdout carries only protocol
// messages; anything else goes to stderr.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/flags.h"
#include "cli/registry.h"
#include "service/judge.h"
#include "service/judge_env.h"
#include "service/mcp.h"
#include "service/mcp_tools.h"
#include "support/numbers.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

struct McpCommand {
  std::string suite = "tasks";
  std::string cacheDir;
  std::string workDir;
  bool noSandbox = false;
  double timeoutSeconds = 60;
};

std::string emulatorInclude() {
  const char* include = std::getenv("TILECRAFT_EMU_INCLUDE");
  return include != nullptr && *include != '\0' ? include : TILECRAFT_EMU_INCLUDE_DIR;
}

// The judge starts the golden worker and the sandbox on the first judging call, so an agent that only reads
// tasks and checks programs never needs Python or bubblewrap; when they cannot start, that call says why.
class LazyJudge final : public service::Judge {
 public:
  LazyJudge(const McpCommand& cmd, fs::path scratch) : cmd_(cmd), scratch_(std::move(scratch)) {}
  service::JudgeOutcome judge(const service::JudgeRequest& request) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!judge_) {
      std::ostringstream err;
      service::JudgeEnvironmentOptions options;
      options.cacheDir = cmd_.cacheDir.empty() ? defaultCacheDir() : cmd_.cacheDir;
      options.workDir = cmd_.workDir.empty() ? (scratch_ / "judge").string() : cmd_.workDir;
      options.emuInclude = emulatorInclude();
      options.sandbox = !cmd_.noSandbox;
      environment_ = service::startJudgeEnvironment(options, err);
      if (!environment_) {
        service::JudgeOutcome failed;
        failed.error = fmt::format("the judge cannot start: {}", err.str());
        return failed;
      }
      service::HarnessJudgeOptions judgeOptions;
      judgeOptions.suiteRoot = cmd_.suite;
      judgeOptions.workDir = environment_->workDir();
      judgeOptions.timeoutSeconds = cmd_.timeoutSeconds;
      judge_ = std::make_unique<service::HarnessJudge>(judgeOptions, environment_->env(), environment_->arch());
    }
    return judge_->judge(request);
  }

 private:
  const McpCommand& cmd_;
  fs::path scratch_;
  std::mutex mutex_;
  std::unique_ptr<service::JudgeEnvironment> environment_;
  std::unique_ptr<service::HarnessJudge> judge_;
};

int runMcp(const McpCommand& cmd) {
  if (!fs::is_directory(cmd.suite)) {
    std::cerr << fmt::format("error: --suite {}: no such folder (a task suite, e.g. tasks/)\n", cmd.suite);
    return 2;
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = (fs::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") / "tilecraft-mcp-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    std::cerr << fmt::format("error: cannot make a scratch folder {}\n", pattern);
    return 2;
  }
  fs::path scratch = pattern;
  int status = 0;
  {
    LazyJudge judge(cmd, scratch);
    service::ToolContext context;
    context.suiteRoot = cmd.suite;
    context.scratchDir = scratch / "check";
    context.judge = &judge;
    service::McpServer server(service::makeTilecraftTools(context), TILECRAFT_VERSION);
    service::StreamTransport transport(std::cin, std::cout);
    status = server.serve(transport);
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return status;
}

void registerMcpCommand(CLI::App& app) {
  CLI::App* mcp = app.add_subcommand("mcp",
                                     "A Model Context Protocol server on stdin/stdout (JSON-RPC, one message per "
                                     "line): tasks, program checks, judging, the language reference");
  auto cmd = std::make_shared<McpCommand>();
  mcp->add_option("--suite", cmd->suite, "The task suite the tools list and judge on")->capture_default_str();
  mcp->add_option("--cache", cmd->cacheDir,
                  "Golden and program cache (default $TILECRAFT_CACHE or ~/.cache/tilecraft)");
  mcp->add_option("--work", cmd->workDir, "Keep the judged solutions and runs here (default: a temporary folder)");
  mcp->add_flag("--no-sandbox", cmd->noSandbox, "Run kernels without the sandbox (debugging only: docs/security.md)");
  checkSeconds(mcp->add_option("--timeout", cmd->timeoutSeconds,
                               fmt::format("Seconds one kernel run may take (at most {:g})", support::kMaxSeconds))
                   ->capture_default_str(),
               false);
  mcp->callback([cmd] {
    int status = runMcp(*cmd);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("mcp", &registerMcpCommand);

}  // namespace
}  // namespace tilecraft::cli
