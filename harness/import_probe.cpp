#include "harness/import_probe.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "runner/sandbox.h"
#include "support/files.h"

#ifndef TILECRAFT_HARNESS_PYTHON_DIR
#define TILECRAFT_HARNESS_PYTHON_DIR ""
#endif

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The last lines of a stream, for a message about a process that died.
std::string tail(const std::string& text, size_t lines) {
  std::vector<std::string> all;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) all.push_back(line);
  }
  std::string out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) out += "\n  " + all[i];
  return out;
}

std::string howItEnded(const runner::SandboxResult& r, double wall) {
  if (r.timedOut) return fmt::format("timed out after {:.0f} s", wall);
  if (r.termSignal != 0) return fmt::format("was killed by signal {}", r.termSignal);
  return fmt::format("exited with status {}", r.exitCode);
}

class SandboxProbe final : public ImportProbe {
 public:
  SandboxProbe(std::shared_ptr<runner::Sandbox> sandbox, SandboxProbeOptions options)
      : sandbox_(std::move(sandbox)), options_(std::move(options)) {
    if (options_.script.empty()) options_.script = fs::path(TILECRAFT_HARNESS_PYTHON_DIR) / "import_probe.py";
  }

  std::vector<ProbeResult> probe(ImportKind kind, const std::vector<ProbeItem>& items) override {
    std::map<std::string, ProbeResult> done;
    std::vector<ProbeItem> pending = items;
    while (!pending.empty()) {
      size_t n = std::min(pending.size(), std::max<size_t>(options_.batchSize, 1));
      std::vector<ProbeItem> batch(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(n));
      runBatch(kind, batch, done);  // settles at least one item, so this loop ends
      // Whatever the batch did not reach runs again in a fresh process.
      std::vector<ProbeItem> rest;
      for (const ProbeItem& item : pending) {
        if (!done.count(item.id)) rest.push_back(item);
      }
      pending = std::move(rest);
    }
    std::vector<ProbeResult> out;
    for (const ProbeItem& item : items) out.push_back(done.at(item.id));
    return out;
  }

 private:
  // Runs one Python process on `batch`; fills `done` for every item it finished or died on. Returns how many.
  size_t runBatch(ImportKind kind, const std::vector<ProbeItem>& batch, std::map<std::string, ProbeResult>& done) {
    fs::path dir = options_.workDir / fmt::format("probe-{}", batchCount_++);
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir, ec);
    fs::path request = dir / "request.json";
    fs::path results = dir / "results.jsonl";
    json items = json::array();
    std::set<std::string> readable = {fs::absolute(options_.script).parent_path().string()};
    for (const ProbeItem& item : batch) {
      fs::path source = fs::absolute(item.source);
      json j = {{"id", item.id}};
      j[kind == ImportKind::KernelBench ? "file" : "dir"] = source.string();
      items.push_back(j);
      // The file's folder, so a module that reads a file beside it (MultiKernelBench's cases.json) can.
      readable.insert((kind == ImportKind::KernelBench ? source.parent_path() : source).string());
    }
    json req = {{"kind", kind == ImportKind::KernelBench ? "kernelbench" : "npukernelbench"},
                {"items", items},
                {"out", fs::absolute(results).string()},
                {"timeout", options_.itemSeconds},
                {"budget", options_.budgetElements}};
    std::string why;
    support::writeFileAtomically(request, req.dump(), &why);

    runner::SandboxSpec spec;
    spec.argv = {options_.python, "-B", fs::absolute(options_.script).string(), fs::absolute(request).string()};
    spec.env = {{"HOME", fs::absolute(dir).string()}, {"PYTHONDONTWRITEBYTECODE", "1"}, {"LC_ALL", "C.UTF-8"}};
    spec.workDir = fs::absolute(dir).string();
    spec.readOnlyPaths.assign(readable.begin(), readable.end());
    spec.limits = options_.limits;
    double wall = 60 + options_.itemSeconds * static_cast<double>(batch.size()) * 1.25;
    spec.limits.wallSeconds = wall;
    runner::SandboxResult r = sandbox_->run(spec);

    std::string started;
    size_t finished = 0;
    if (std::optional<std::string> text = support::readFile(results)) {
      std::istringstream in(*text);
      for (std::string line; std::getline(in, line);) {
        json j = json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.contains("id")) continue;
        std::string id = j["id"].get<std::string>();
        if (j.value("start", false)) {
          started = id;
          continue;
        }
        ProbeResult pr;
        pr.id = id;
        pr.ok = j.value("ok", false);
        if (pr.ok) {
          pr.json = j.dump();
        } else {
          pr.error = j.value("error", std::string("the probe failed"));
        }
        done[id] = pr;
        started.clear();
        ++finished;
      }
    }
    fs::remove_all(dir, ec);
    if (finished == batch.size()) return finished;
    // The process ended early: the task it was on is the culprit; with none started, Python itself failed.
    std::string culprit = started.empty() ? batch[finished].id : started;
    ProbeResult pr;
    pr.id = culprit;
    if (!r.started) {
      pr.error = "the import probe could not start: " + r.startError;
    } else {
      pr.error = fmt::format("the import probe (Python, in the sandbox) {} while importing this task{}",
                             howItEnded(r, wall), r.err.empty() ? "" : "; its last output:" + tail(r.err, 4));
    }
    done[culprit] = pr;
    if (started.empty() && finished == 0) {
      // Nothing ran at all: the same would happen to every item, so fail them all with the same reason.
      for (const ProbeItem& item : batch) {
        if (!done.count(item.id)) done[item.id] = ProbeResult{item.id, false, pr.error, ""};
      }
      return batch.size();
    }
    return finished + 1;
  }

  std::shared_ptr<runner::Sandbox> sandbox_;
  SandboxProbeOptions options_;
  int batchCount_ = 0;
};

}  // namespace

std::unique_ptr<ImportProbe> makeSandboxProbe(std::shared_ptr<runner::Sandbox> sandbox,
                                              const SandboxProbeOptions& options) {
  return std::make_unique<SandboxProbe>(std::move(sandbox), options);
}

}  // namespace tilecraft::harness
