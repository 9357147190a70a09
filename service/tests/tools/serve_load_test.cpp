// serve_load_test TILECRAFT REPO WORKDIR: the reward service under load on loopback. Starts `tilecraft serve` with 2
// workers and 4 queue places (every request judged afresh: --verdict-cache 0) on the add task's case 1, then:
//   warm-up: a correct, a wrong and a non-compiling solution once each (their verdicts and rewards);
//   A: 18 requests from 6 clients (= workers + queue): no 429 at all, every verdict right;
//   B: 22 requests from 16 clients: each gets exactly one answer, 200 with the right verdict or 429 with
//      Retry-After, and every 429 says the queue was full (4 waiting for 2 workers);
//   the server's counters agree with what the clients saw;
//   SIGTERM with 6 requests in flight: all 6 answered, exit status 0.
// Prints "serve load: N passed, 0 failed".
#include <signal.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "service/load_client.h"
#include "support/files.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tilecraft::service::ChildProcess;
using tilecraft::service::LoadAnswer;
using tilecraft::service::LoadOptions;
using tilecraft::service::sendLoad;

int passed = 0, failed = 0;

void check(bool ok, const std::string& what) {
  ++(ok ? passed : failed);
  if (!ok) std::cout << "FAIL: " << what << '\n';
}

enum class Kind { Correct, Wrong, Broken };

// Whether an answer is the verdict the solution deserves.
bool rightVerdict(Kind kind, const LoadAnswer& a) {
  json v = json::parse(a.body, nullptr, false);
  if (a.status != 200 || v.is_discarded()) return false;
  switch (kind) {
    case Kind::Correct: return v["correct"] == true && v["reward"].get<double>() >= 0.5 && v["cases_passed"] == 1;
    case Kind::Wrong:
      return v["compiled"] == true && v["correct"] == false && v["reward"] == 0 &&
             v["cases"][0]["failure"] == "numeric_mismatch";
    case Kind::Broken: return v["compiled"] == false && v["reward"] == -1;
  }
  return false;
}

json health(int port) {
  httplib::Client c("127.0.0.1", port);
  httplib::Result r = c.Get("/healthz");
  return r ? json::parse(r->body, nullptr, false) : json();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: serve_load_test TILECRAFT REPO WORKDIR\n";
    return 2;
  }
  fs::path repo = argv[2], work = argv[3];
  fs::remove_all(work);
  fs::create_directories(work);
  ChildProcess serve({argv[1], "serve", "--port", "0", "--workers", "2", "--queue", "4", "--verdict-cache", "0",
                      "--suite", (repo / "tasks").string(), "--cache", (work / "cache").string(), "--work",
                      (work / "work").string()});
  std::string banner;
  if (!serve.readLine(&banner, 120)) {
    std::cout << "FAIL: tilecraft serve printed no banner\n";
    return 1;
  }
  size_t colon = banner.rfind(':', banner.find(" (workers"));
  int port = std::atoi(banner.c_str() + colon + 1);
  check(banner.rfind("tilecraft serve: listening on http://127.0.0.1:", 0) == 0 && port > 0, "banner: " + banner);

  std::string good = tilecraft::support::readFile(repo / "solutions/add/add.tile").value_or("");
  std::string wrong = good, broken = good;
  wrong.replace(wrong.find("a + b"), 5, "a - b");
  broken.replace(broken.find("a + b"), 5, "a + q");
  auto body = [](const std::string& source) {
    return json{{"task", "add"}, {"solution", {{"kind", "dsl"}, {"source", source}}}, {"cases", {"1"}}}.dump();
  };
  const std::string bodies[3] = {body(good), body(wrong), body(broken)};
  auto mix = [&](int n, std::vector<Kind>* kinds) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) {
      kinds->push_back(static_cast<Kind>(i % 3));
      out.push_back(bodies[i % 3]);
    }
    return out;
  };

  std::vector<Kind> warmKinds;
  std::vector<LoadAnswer> warm = sendLoad(mix(3, &warmKinds), {"127.0.0.1", port, 1});
  for (size_t i = 0; i < warm.size(); ++i) {
    check(rightVerdict(warmKinds[i], warm[i]), fmt::format("warm-up {}: {} {}", i, warm[i].status, warm[i].body));
  }

  std::vector<Kind> kindsA;
  std::vector<LoadAnswer> a = sendLoad(mix(18, &kindsA), {"127.0.0.1", port, 6});
  int wrongA = 0, rejectedA = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    rejectedA += a[i].status == 429 ? 1 : 0;
    wrongA += rightVerdict(kindsA[i], a[i]) ? 0 : 1;
  }
  check(rejectedA == 0, fmt::format("A: {} requests got 429 with no more clients than places", rejectedA));
  check(wrongA == 0, fmt::format("A: {} answers were not the right verdict", wrongA));

  std::vector<Kind> kindsB;
  std::vector<LoadAnswer> b = sendLoad(mix(22, &kindsB), {"127.0.0.1", port, 16});
  int ok = 0, rejected = 0, bad = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i].status == 429) {
      ++rejected;
      json e = json::parse(b[i].body, nullptr, false);
      bool full = !e.is_discarded() && b[i].retryAfter == "1" &&
                  e["error"] == "the queue is full (4 requests waiting for 2 workers); retry after 1 s";
      if (!full) std::cout << "  429 without a full queue: " << b[i].body << '\n';
      bad += full ? 0 : 1;
    } else if (rightVerdict(kindsB[i], b[i])) {
      ++ok;
    } else {
      ++bad;
      std::cout << "  unexpected answer: " << b[i].status << ' ' << b[i].error << b[i].body << '\n';
    }
  }
  check(ok + rejected == 22 && bad == 0, fmt::format("B: {} verdicts + {} 429s of 22, {} wrong", ok, rejected, bad));
  check(rejected > 0, "B: 16 clients for 6 places got some 429");
  std::cout << fmt::format("B: {} judged, {} refused with 429\n", ok, rejected);

  // A second service on the same port cannot listen: the message and exit status 2.
  {
    ChildProcess second(
        {"/bin/sh", "-c",
         fmt::format("'{}' serve --port {} --suite '{}' --cache '{}' --work '{}' 2>&1", argv[1], port,
                     (repo / "tasks").string(), (work / "cache").string(), (work / "second").string())});
    std::string line;
    bool said = second.readLine(&line, 120);
    if (!said || line.rfind("error: ", 0) != 0) second.signal(SIGKILL);  // it listens: the check fails below
    check(said && line == fmt::format("error: cannot listen on 127.0.0.1:{}: the port is in use or the address is not "
                                      "this machine's",
                                      port),
          "a taken port: " + line);
    check(second.wait() == 2, "a taken port: exit status 2");
  }

  json h = health(port);
  check(h["answered"] == 3 + 18 + ok && h["rejected_full"] == rejected && h["accepted"] == h["answered"],
        "the server's counters match the clients': " + h.dump());

  // Graceful shutdown: SIGTERM with requests in flight; every accepted one is answered, then exit 0.
  std::vector<LoadAnswer> c;
  std::thread inFlight([&] { c = sendLoad(std::vector<std::string>(6, bodies[0]), {"127.0.0.1", port, 6}); });
  int before = h.value("accepted", 0);
  for (int i = 0; i < 1000 && health(port).value("accepted", 0) < before + 6; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  serve.signal(SIGTERM);
  inFlight.join();
  int answeredC = 0;
  for (const LoadAnswer& answer : c) answeredC += rightVerdict(Kind::Correct, answer) ? 1 : 0;
  check(answeredC == 6, fmt::format("SIGTERM: {} of 6 in-flight requests answered with their verdict", answeredC));
  int status = serve.wait();
  check(status == 0, fmt::format("SIGTERM: exit status {}", status));
  check(!health(port).is_object(), "after SIGTERM nothing listens");

  std::cout << fmt::format("serve load: {} passed, {} failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
