// serve_bench TILECRAFT REPO [REQUESTS] [CONCURRENCY] [WORKERS] [QUEUE]: latency and throughput of `tilecraft
// serve` on loopback (docs/services.md, "Measured"). Judges the add task's case 1 with the expert solution and a
// numerically wrong one, alternating, after one warm-up request each (the golden is computed and both programs
// built once). Two runs: every request judged afresh (--verdict-cache 0: DSL compile, two sandboxed emulator runs,
// comparison, trace and timeline), then with the verdict cache (repeated identical requests). Clients wait out a
// 429's Retry-After and send again, so every request ends in a verdict; the latency includes those waits.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "service/load_client.h"
#include "support/files.h"

namespace {

namespace fs = std::filesystem;
using tilecraft::service::ChildProcess;
using tilecraft::service::LoadAnswer;

int runOnce(const std::string& tilecraft, const fs::path& repo, const fs::path& work, const std::string& label,
            const std::string& verdictCache, int requests, int concurrency, int workers, int queue) {
  ChildProcess serve({tilecraft, "serve", "--port", "0", "--workers", std::to_string(workers), "--queue",
                      std::to_string(queue), "--verdict-cache", verdictCache, "--suite", (repo / "tasks").string(),
                      "--cache", (work / "cache").string(), "--work", (work / label).string()});
  std::string banner;
  if (!serve.readLine(&banner, 120)) {
    std::cerr << "serve_bench: tilecraft serve did not start\n";
    return 1;
  }
  int port = std::atoi(banner.c_str() + banner.rfind(':', banner.find(" (workers")) + 1);
  std::string good = tilecraft::support::readFile(repo / "solutions/add/add.tile").value_or("");
  std::string wrong = good;
  wrong.replace(wrong.find("a + b"), 5, "a - b");
  auto body = [](const std::string& source) {
    return nlohmann::json{{"task", "add"}, {"solution", {{"kind", "dsl"}, {"source", source}}}, {"cases", {"1"}}}
        .dump();
  };
  tilecraft::service::LoadOptions options{"127.0.0.1", port, 1, true};
  tilecraft::service::sendLoad({body(good), body(wrong)}, options);  // warm-up
  std::vector<std::string> bodies;
  for (int i = 0; i < requests; ++i) bodies.push_back(body(i % 2 ? wrong : good));
  options.concurrency = concurrency;
  auto start = std::chrono::steady_clock::now();
  std::vector<LoadAnswer> answers = tilecraft::service::sendLoad(bodies, options);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<double> latency;
  int ok = 0, retried = 0;
  for (const LoadAnswer& a : answers) {
    latency.push_back(a.seconds * 1000);
    ok += a.status == 200 ? 1 : 0;
    retried += a.attempts - 1;
  }
  std::cout << fmt::format(
      "{:<14} {:>4} requests  {:>2} clients  workers {} queue {:>2}  p50 {:>8.1f} ms  p99 {:>8.1f} ms  {:>6.2f} req/s  "
      "{} answered 200, {} retries after 429\n",
      label, requests, concurrency, workers, queue, tilecraft::service::percentile(latency, 50),
      tilecraft::service::percentile(latency, 99), requests / wall, ok, retried);
  serve.signal(SIGTERM);
  return serve.wait() == 0 && ok == requests ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: serve_bench TILECRAFT REPO [REQUESTS=40] [CONCURRENCY=8] [WORKERS=2] [QUEUE=8]\n";
    return 2;
  }
  int requests = argc > 3 ? std::atoi(argv[3]) : 40, concurrency = argc > 4 ? std::atoi(argv[4]) : 8;
  int workers = argc > 5 ? std::atoi(argv[5]) : 2, queue = argc > 6 ? std::atoi(argv[6]) : 8;
  fs::path work = fs::temp_directory_path() / fmt::format("tilecraft-serve-bench-{}", ::getpid());
  fs::create_directories(work);
  int status = runOnce(argv[1], argv[2], work, "judged", "0", requests, concurrency, workers, queue);
  status |= runOnce(argv[1], argv[2], work, "cached-verdict", "256", requests, concurrency, workers, queue);
  fs::remove_all(work);
  return status;
}
