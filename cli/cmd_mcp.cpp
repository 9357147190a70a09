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
#include "cli/judge_setup.h"
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
  JudgeFlags judge;
};

// The judge starts the golden worker and the sandbox on the first judging call, so an agent that only reads
// tasks and checks programs never needs Python or bubblewrap; when they cannot start, that call says why.
class LazyJudge final : public service::Judge {
 public:
  LazyJudge(const McpCommand& cmd, fs::path scratch) : cmd_(cmd), scratch_(std::move(scratch)) {}
  service::JudgeOutcome judge(const service::JudgeRequest& request) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!started_.judge) {
      std::ostringstream err;
      JudgeFlags flags = cmd_.judge;
      if (flags.workDir.empty()) flags.workDir = (scratch_ / "judge").string();
      started_ = startJudge(flags, err);
      if (!started_.judge) {
        service::JudgeOutcome failed;
        failed.error = fmt::format("the judge cannot start: {}", err.str());
        return failed;
      }
    }
    return started_.judge->judge(request);
  }

 private:
  const McpCommand& cmd_;
  fs::path scratch_;
  std::mutex mutex_;
  StartedJudge started_;
};

int runMcp(const McpCommand& cmd) {
  if (!fs::is_directory(cmd.judge.suite)) {
    std::cerr << fmt::format("error: --suite {}: no such folder (a task suite, e.g. tasks/)\n", cmd.judge.suite);
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
    context.suiteRoot = cmd.judge.suite;
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
  mcp->add_option("--suite", cmd->judge.suite, "The task suite the tools list and judge on")->capture_default_str();
  mcp->add_option("--cache", cmd->judge.cacheDir,
                  "Golden and program cache (default $TILECRAFT_CACHE or ~/.cache/tilecraft)");
  mcp->add_option("--work", cmd->judge.workDir,
                  "Keep the judged solutions and runs here (default: a temporary folder)");
  mcp->add_flag("--no-sandbox", cmd->judge.noSandbox,
                "Run kernels without the sandbox (debugging only: docs/security.md)");
  checkSeconds(mcp->add_option("--timeout", cmd->judge.timeoutSeconds,
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
