#include "service/judge.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <mutex>
#include <regex>

#include <fmt/format.h>

#include "harness/metrics.h"
#include "harness/solution.h"
#include "harness/task.h"
#include "support/assert.h"
#include "support/files.h"

namespace tilecraft::service {
namespace {

namespace fs = std::filesystem;

// Solutions judged at once on the same content share one folder; a stripe of locks keeps them apart.
constexpr size_t kFolderLocks = 64;
constexpr size_t kMaxFiles = 32;

bool scoredRow(const harness::Record& r) {
  return r.failure != harness::Failure::GoldenError && r.failure != harness::Failure::NotEvaluable;
}

bool insideFolder(const fs::path& path, const fs::path& folder) {
  auto [end, at] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return end == folder.end();
}

std::string joinIds(const std::vector<harness::Case>& cases) {
  std::string out;
  for (const harness::Case& c : cases) out += (out.empty() ? "" : ", ") + c.id;
  return out;
}

}  // namespace

std::string contentHash(const std::vector<std::string>& parts) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  for (const std::string& p : parts) {
    std::string length = std::to_string(p.size()) + ":";
    EVP_DigestUpdate(ctx, length.data(), length.size());
    EVP_DigestUpdate(ctx, p.data(), p.size());
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(ctx, digest.data(), &size);
  EVP_MD_CTX_free(ctx);
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

double rewardOf(const Verdict& v) {
  if (!v.scored) return 0;
  if (!v.compiled) return -1;
  if (!v.correct) return 0;
  return 0.5 + 0.5 * std::clamp(v.limitScore, 0.0, 1.0);
}

Verdict verdictFromRows(const std::string& task, const std::string& kind, const std::vector<harness::Record>& rows) {
  Verdict v;
  v.task = task;
  v.kind = kind;
  v.casesTotal = static_cast<int>(rows.size());
  bool compiled = true, correct = true;
  int scored = 0;
  for (const harness::Record& r : rows) {
    CaseVerdict c;
    c.caseId = r.caseId;
    c.compiled = r.compiled;
    c.correct = r.correct;
    c.failure = harness::failureName(r.failure);
    c.message = r.message;
    c.simUs = r.simUs;
    c.eagerUs = r.eagerUs;
    c.limitUs = r.limitUs;
    c.speedup = r.simUs > 0 && r.eagerUs > 0 ? r.eagerUs / r.simUs : 0;
    c.limitScore = r.correct ? harness::limitScore(r.simUs, r.eagerUs, r.limitUs) : 0;
    c.bottleneck = r.bottleneck;
    v.cases.push_back(c);
    v.casesPassed += r.correct ? 1 : 0;
    if (v.diagnostics.empty() && !r.correct) {
      v.diagnostics = fmt::format("case {}: {}: {}", r.caseId, c.failure, r.message);
    }
    if (!scoredRow(r)) continue;
    ++scored;
    compiled = compiled && r.compiled;
    correct = correct && r.correct;
  }
  v.scored = scored > 0;
  v.compiled = v.scored && compiled;
  v.correct = v.scored && correct;
  harness::Summary summary = harness::summarize(rows);
  v.speedup = summary.overall.geomeanSpeedup;
  v.limitScore = summary.overall.limitScore;
  v.reward = rewardOf(v);
  return v;
}

std::string checkSolution(const SubmittedSolution& s) {
  static const std::regex name("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  if (s.kind != "dsl" && s.kind != "ascendc") {
    return fmt::format("solution kind '{}' is not one of dsl, ascendc", s.kind);
  }
  if (s.files.empty()) return "the solution has no files";
  if (s.files.size() > kMaxFiles) {
    return fmt::format("the solution has {} files; at most {} are accepted", s.files.size(), kMaxFiles);
  }
  bool kernel = false, submission = false;
  for (const auto& [path, text] : s.files) {
    if (s.kind == "ascendc" && fs::path(path).extension() == ".py") {  // a MultiKernelBench submission
      if (!std::regex_match(path, name) || s.files.size() != 1) {
        return fmt::format(
            "file '{}': a MultiKernelBench submission is one NAME.py (its six source strings), with "
            "no other file",
            path);
      }
      submission = true;
    } else if (s.kind == "dsl") {
      bool tile = std::regex_match(path, name) && fs::path(path).extension() == ".tile";
      if (!tile && path != "binding.yaml") {
        return fmt::format("file '{}': a DSL solution holds NAME.tile files and an optional binding.yaml", path);
      }
      kernel = kernel || tile;
    } else {
      fs::path p(path);
      std::string folder = p.parent_path().string(), leaf = p.filename().string(), ext = p.extension().string();
      if ((folder != "op_host" && folder != "op_kernel") || !std::regex_match(leaf, name) ||
          (ext != ".cpp" && ext != ".h" && ext != ".hpp")) {
        return fmt::format(
            "file '{}': an AscendC solution holds op_host/NAME.{{cpp,h}} and op_kernel/NAME.{{cpp,h}} files", path);
      }
      kernel = kernel || folder == "op_kernel";
    }
  }
  if (!kernel && !submission) {
    return s.kind == "dsl" ? "the solution has no .tile file" : "the solution has no op_kernel/ file";
  }
  return "";
}

std::optional<fs::path> resolveTask(const fs::path& suiteRoot, const std::string& task, std::string* error) {
  std::error_code ec;
  fs::path root = fs::weakly_canonical(suiteRoot, ec);
  if (!task.empty() && task.find('/') == std::string::npos && task != "." && task != "..") {
    for (const fs::path& dir : harness::findTaskDirs(root)) {
      if (dir.filename() == task) return dir;
    }
  } else if (!task.empty()) {
    fs::path given = fs::path(task).is_absolute() ? fs::path(task) : root / task;
    fs::path dir = fs::weakly_canonical(given, ec);
    if (!ec && insideFolder(dir, root) && fs::is_regular_file(dir / "proto.yaml")) return dir;
    if (!ec && !insideFolder(dir, root)) {
      *error =
          fmt::format("task '{}' is outside the suite {}: only its task folders are judged", task, suiteRoot.string());
      return std::nullopt;
    }
  }
  *error = fmt::format("unknown task '{}': no task folder of that name under {} (list_tasks lists them)", task,
                       suiteRoot.string());
  return std::nullopt;
}

struct HarnessJudge::State {
  HarnessJudgeOptions options;
  harness::BenchEnv env;
  perf::ArchSpec arch;
  std::mutex goldenMutex;
  std::array<std::mutex, kFolderLocks> folderLocks;
  std::mutex cacheMutex;
  std::map<std::string, Verdict> cache;
  std::deque<std::string> cacheOrder;  // oldest first, for eviction

  std::optional<Verdict> cached(const std::string& key) {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = cache.find(key);
    if (it == cache.end()) return std::nullopt;
    Verdict v = it->second;
    v.cached = true;
    return v;
  }
  void remember(const std::string& key, const Verdict& v) {
    if (options.verdictCacheEntries == 0) return;
    std::lock_guard<std::mutex> lock(cacheMutex);
    if (!cache.emplace(key, v).second) return;
    cacheOrder.push_back(key);
    while (cacheOrder.size() > options.verdictCacheEntries) {
      cache.erase(cacheOrder.front());
      cacheOrder.pop_front();
    }
  }
};

HarnessJudge::HarnessJudge(HarnessJudgeOptions options, harness::BenchEnv env, perf::ArchSpec arch)
    : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
  state_->options.workDir = fs::absolute(state_->options.workDir).lexically_normal();
  state_->env = env;
  state_->arch = std::move(arch);
}

HarnessJudge::~HarnessJudge() = default;

JudgeOutcome HarnessJudge::judge(const JudgeRequest& request) {
  State& st = *state_;
  JudgeOutcome outcome;
  outcome.error = checkSolution(request.solution);
  if (!outcome.ok()) return outcome;
  std::optional<fs::path> dir = resolveTask(st.options.suiteRoot, request.task, &outcome.error);
  if (!dir) return outcome;
  harness::TaskLoad load = harness::loadTask(*dir);
  if (!load.task) {
    outcome.error = fmt::format("task '{}' does not load: {}", request.task,
                                load.errors.empty() ? "no cases" : load.errors.front().str());
    return outcome;
  }
  const harness::Task& task = *load.task;
  std::vector<const harness::Case*> cases;
  for (const std::string& id : request.cases) {
    auto it = std::find_if(task.cases.begin(), task.cases.end(), [&](const harness::Case& c) { return c.id == id; });
    if (it == task.cases.end()) {
      outcome.error = fmt::format("task '{}' has no case '{}' (its cases: {})", task.name, id, joinIds(task.cases));
      return outcome;
    }
    if (std::find(cases.begin(), cases.end(), &*it) == cases.end()) cases.push_back(&*it);
  }
  if (request.cases.empty()) {
    for (const harness::Case& c : task.cases) cases.push_back(&c);
  }
  if (cases.empty()) {
    outcome.error = fmt::format("task '{}' has no cases", task.name);
    return outcome;
  }

  // The solution's folder is named by its content, so the same solution builds into the same paths and the
  // service's program cache (keyed by source and path) builds it once.
  std::vector<std::string> parts = {dir->string(), request.solution.kind};
  for (const auto& [path, text] : request.solution.files) parts.insert(parts.end(), {path, text});
  std::string solutionKey = contentHash(parts);
  parts.insert(parts.end(), {harness::ruleName(st.options.rule), std::to_string(st.options.seed)});
  for (const harness::Case* c : cases) parts.push_back(c->id);
  std::string verdictKey = contentHash(parts);
  if (std::optional<Verdict> v = st.cached(verdictKey)) {
    outcome.verdict = *v;
    return outcome;
  }

  std::lock_guard<std::mutex> folderLock(
      st.folderLocks[std::stoul(solutionKey.substr(0, 8), nullptr, 16) % kFolderLocks]);
  if (std::optional<Verdict> v = st.cached(verdictKey)) {  // judged while this request waited for the folder
    outcome.verdict = *v;
    return outcome;
  }
  fs::path base = st.options.workDir / solutionKey.substr(0, 24);
  fs::path solutionDir = base / "solution";
  std::error_code ec;
  fs::remove_all(solutionDir, ec);
  for (const auto& [path, text] : request.solution.files) {
    fs::create_directories((solutionDir / path).parent_path());
    std::string error;
    if (!support::writeFileAtomically(solutionDir / path, text, &error)) {
      outcome.error = error;
      return outcome;
    }
  }
  std::vector<harness::Solution> found = harness::findSolutions(base, "solution");
  TC_ASSERT(found.size() == 1, "one solution folder, {} found", found.size());
  harness::BenchOptions options;
  options.outDir = (base / "run").string();
  options.rule = st.options.rule;
  options.seed = st.options.seed;
  options.timeoutSeconds = st.options.timeoutSeconds;
  options.quiet = true;
  std::vector<harness::Record> rows =
      harness::judgeTask(task, cases, found.front(), options, st.env, st.arch, st.goldenMutex);
  // Messages name the client's files as the client named them, not where this service keeps them.
  std::string prefix = (solutionDir / "").string();
  for (harness::Record& r : rows) {
    for (size_t at = r.message.find(prefix); at != std::string::npos; at = r.message.find(prefix, at)) {
      r.message.erase(at, prefix.size());
    }
  }
  outcome.verdict = verdictFromRows(task.name, request.solution.kind, rows);
  st.remember(verdictKey, outcome.verdict);
  return outcome;
}

}  // namespace tilecraft::service
