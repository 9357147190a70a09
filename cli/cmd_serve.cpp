// `tilecraft serve`: the HTTP reward service for RL (service/reward_server.h) on 127.0.0.1. SIGTERM or SIGINT
// stops it gracefully: no new connections, every accepted request answered, exit 0.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/flags.h"
#include "cli/judge_setup.h"
#include "cli/registry.h"
#include "service/judge.h"
#include "service/judge_env.h"
#include "service/reward_server.h"
#include "support/numbers.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

struct ServeCommand {
  service::RewardServerOptions server;
  JudgeFlags judge;
};

// The signal handler only writes a byte to this pipe (async-signal-safe); a thread reads it and stops the server.
int gSignalPipe[2] = {-1, -1};

extern "C" void onStopSignal(int signal) {
  unsigned char byte = static_cast<unsigned char>(signal);
  [[maybe_unused]] ssize_t written = ::write(gSignalPipe[1], &byte, 1);
}

int runServe(ServeCommand& cmd) {
  if (!fs::is_directory(cmd.judge.suite)) {
    std::cerr << fmt::format("error: --suite {}: no such folder (a task suite, e.g. tasks/)\n", cmd.judge.suite);
    return 2;
  }
  StartedJudge started = startJudge(cmd.judge, std::cerr);
  if (!started.judge) return 2;
  service::RewardServer server(*started.judge, cmd.server);
  std::string error;
  int port = server.bind(&error);
  if (port < 0) {
    std::cerr << "error: " << error << '\n';
    return 2;
  }
  if (::pipe2(gSignalPipe, O_CLOEXEC) != 0) {
    std::cerr << "error: cannot make the signal pipe\n";
    return 2;
  }
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  std::atomic<bool> finished{false};
  std::thread stopper([&] {
    unsigned char byte = 0;
    if (::read(gSignalPipe[0], &byte, 1) != 1 || finished) return;
    std::cerr << fmt::format("tilecraft serve: signal {}: stopping; answering the requests already accepted\n",
                             static_cast<int>(byte));
    // stop() before the listener has started is lost: repeat until run() has returned.
    while (!finished) {
      server.stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  std::cout << fmt::format("tilecraft serve: listening on http://{}:{} (workers {}, queue {}, suite {})\n",
                           cmd.server.host, port, cmd.server.workers, cmd.server.queue, cmd.judge.suite)
            << std::flush;
  server.run();
  finished = true;
  onStopSignal(0);  // wakes the stopper thread when no signal came
  stopper.join();
  service::RewardServerStats stats = server.stats();
  std::cerr << fmt::format("tilecraft serve: stopped: {} requests answered, {} refused with 429, {} bad requests\n",
                           stats.answered, stats.rejectedFull, stats.badRequests);
  signal(SIGTERM, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  return 0;
}

void registerServeCommand(CLI::App& app) {
  CLI::App* serve = app.add_subcommand("serve",
                                       "An HTTP reward service for RL: POST /v1/reward judges a solution on a task "
                                       "(compiled, correct, speedup, limit score, reward); GET /healthz");
  auto cmd = std::make_shared<ServeCommand>();
  cmd->server.workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  serve->add_option("--port", cmd->server.port, "TCP port on the host (0: a free one, printed)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  serve->add_option("--host", cmd->server.host, "Address to listen on (only loopback is safe: no authentication)")
      ->capture_default_str();
  checkCount(serve->add_option("--workers", cmd->server.workers, "Solutions judged at once (default: the cores)")
                 ->capture_default_str(),
             1, 256, "workers");
  checkCount(serve->add_option("--queue", cmd->server.queue, "Requests that may wait for a worker; more get 429")
                 ->capture_default_str(),
             0, 100000, "queue places");
  checkCount(serve->add_option("--max-request-bytes", cmd->server.maxRequestBytes, "Largest request body (413 above)")
                 ->capture_default_str(),
             1024, 1 << 30, "bytes");
  checkCount(serve
                 ->add_option("--verdict-cache", cmd->judge.verdictCache,
                              "Verdicts kept for repeated identical requests (0: judge every request)")
                 ->capture_default_str(),
             0, 1000000, "verdicts");
  serve->add_option("--suite", cmd->judge.suite, "The task suite requests name tasks in")->capture_default_str();
  serve->add_option("--cache", cmd->judge.cacheDir,
                    "Golden and program cache (default $TILECRAFT_CACHE or ~/.cache/tilecraft)");
  serve->add_option("--work", cmd->judge.workDir,
                    "Keep the judged solutions and runs here (default: a temporary folder)");
  serve->add_flag("--no-sandbox", cmd->judge.noSandbox,
                  "Run kernels without the sandbox (debugging only: docs/security.md)");
  checkSeconds(serve
                   ->add_option("--timeout", cmd->judge.timeoutSeconds,
                                fmt::format("Seconds one kernel run may take (at most {:g})", support::kMaxSeconds))
                   ->capture_default_str(),
               false);
  serve->callback([cmd] {
    int status = runServe(*cmd);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("serve", &registerServeCommand);

}  // namespace
}  // namespace tilecraft::cli
