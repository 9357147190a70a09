#include "harness/bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "codegen/driver.h"
#include "harness/merge.h"
#include "harness/metrics.h"
#include "harness/progress.h"
#include "harness/project_solution.h"
#include "harness/reference.h"
#include "harness/shard.h"
#include "harness/report.h"
#include "harness/solution.h"
#include "harness/task.h"
#include "interp/npy.h"
#include "perf/arch.h"
#include "perf/error.h"
#include "perf/timeline.h"
#include "perf/trace.h"
#include "support/files.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;

// The second input seed of a case: far from the first so the two draws share nothing.
constexpr uint64_t kSecondSeedOffset = 0x9E3779B97F4A7C15ull;

// Reports and inputs are written whole or not at all (support::writeFileAtomically).
void writeAtomically(const fs::path& path, const std::string& text) {
  std::string error;
  if (!support::writeFileAtomically(path, text, &error)) throw std::runtime_error(error);
}

std::string safeName(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  return out;
}

// Messages must not depend on where a run keeps its files (a Slurm shard and a local run compare equal).
std::string withoutPrefix(std::string text, const std::string& prefix) {
  for (size_t at = text.find(prefix); !prefix.empty() && at != std::string::npos; at = text.find(prefix, at)) {
    text.erase(at, prefix.size());
  }
  return text;
}

std::string firstLine(const std::string& text) {
  size_t end = text.find('\n');
  std::string line = text.substr(0, end);
  return line.size() > 400 ? line.substr(0, 400) + "..." : line;
}

// Appends rows to results.jsonl, one flushed line each: a kill -9 loses at most the line being written.
class ResultLog {
 public:
  ResultLog(const fs::path& path, Progress* progress)
      : out_(path, std::ios::binary | std::ios::app), progress_(progress) {
    if (!out_) throw std::runtime_error(fmt::format("cannot open {} for appending", path.string()));
  }
  void append(const Record& r) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      out_ << recordToJson(r) << '\n';
      out_.flush();
    }
    if (progress_) progress_->finished(r);
  }

 private:
  std::mutex mutex_;
  std::ofstream out_;
  Progress* progress_;
};

// Progress lines go where the caller's error stream goes.
class StreamProgressOutput final : public ProgressOutput {
 public:
  explicit StreamProgressOutput(std::ostream& out) : out_(out) {}
  void write(std::string_view text) override { out_ << text << std::flush; }

 private:
  std::ostream& out_;
};

// Where TaskRun puts each row as it is judged: results.jsonl for a run, a vector for judgeTask.
using RecordSink = std::function<void(const Record&)>;

// One solution kernel built for the emulator, shared by every case that binds to it.
struct BuiltKernel {
  bool compiled = false;
  Failure failure = Failure::None;
  std::string message;
  std::string program;
  double seconds = 0;    // compiling the DSL and building the program
  bool charged = false;  // its cost is in some row's kernel_s already
};

class TaskRun {
 public:
  TaskRun(const BenchOptions& options, const BenchEnv& env, const perf::ArchSpec& arch, std::mutex& goldenMutex,
          RecordSink log, const std::set<std::string>& done)
      : options_(options), env_(env), arch_(arch), goldenMutex_(goldenMutex), log_(std::move(log)), done_(done) {}

  // Evaluates `cases` of `task` for every sample; returns the rows written.
  int run(const Task& task, const std::vector<const Case*>& cases, const std::vector<Solution>& solutions,
          const std::set<std::pair<std::string, int>>& wanted) {
    int rows = 0;
    for (const Case* c : cases) {
      std::vector<const Solution*> todo;
      for (const Solution& s : solutions) {
        Record key;
        key.task = task.name;
        key.caseId = c->id;
        key.sample = s.sample;
        if (wanted.count({c->id, s.sample}) && !done_.count(recordKey(key))) todo.push_back(&s);
      }
      if (todo.empty()) continue;
      rows += runCase(task, *c, todo);
    }
    return rows;
  }

 private:
  double now() const {
    if (env_.clock) return env_.clock();
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  Record baseRecord(const Task& task, const Case& c, const Solution& s) const {
    Record r;
    r.task = task.name;
    r.category = task.category;
    r.level = task.level;
    r.caseId = c.id;
    r.sample = s.sample;
    r.solutionKind = s.kind;
    r.rule = ruleName(options_.rule);
    return r;
  }

  // Inputs of one seed: the task's inputs.py when it has one, else generated here; then golden.py's get_input
  // hook (CANN Bench's), when it has one, shapes them for the golden and the kernel alike.
  bool makeInputs(const Task& task, const Case& c, uint64_t seed, std::vector<NamedTensor>* inputs,
                  std::string* error) {
    std::lock_guard<std::mutex> lock(goldenMutex_);
    if (task.hasInputsPy) {
      GoldenResult made = env_.golden->makeInputs(task, c, seed);
      if (!made.ok) {
        *error = fmt::format("inputs.py failed: {}", made.error);
        return false;
      }
      *inputs = std::move(made.outputs);
      return true;
    }
    GoldenResult prepared = env_.golden->prepareInputs(task, c, generateInputs(task, c, seed));
    if (!prepared.ok) {
      *error = fmt::format("golden.py's get_input failed: {}", prepared.error);
      return false;
    }
    *inputs = std::move(prepared.outputs);
    return true;
  }

  int runCase(const Task& task, const Case& c, const std::vector<const Solution*>& solutions) {
    double start = now();
    if (!c.unsupported.empty()) {
      // A dtype Tilecraft does not represent (float8, int4, ...): no input, golden or kernel can be made for it.
      for (const Solution* s : solutions) {
        Record r = baseRecord(task, c, *s);
        r.failure = Failure::NotEvaluable;
        r.message = c.unsupported;
        log_(r);
      }
      return static_cast<int>(solutions.size());
    }
    uint64_t seeds[2] = {options_.seed, options_.seed + kSecondSeedOffset};
    std::vector<NamedTensor> inputs[2];
    GoldenResult golden[2];
    std::string error;
    for (int s = 0; s < 2 && error.empty(); ++s) {
      if (!makeInputs(task, c, seeds[s], &inputs[s], &error)) break;
      std::lock_guard<std::mutex> lock(goldenMutex_);
      golden[s] = env_.golden->run(task, c, inputs[s]);
      if (!golden[s].ok) error = fmt::format("golden failed: {}", golden[s].error);
    }
    if (!error.empty()) {
      for (const Solution* s : solutions) {
        Record r = baseRecord(task, c, *s);
        r.failure = Failure::GoldenError;
        r.message = firstLine(error);
        r.wallSeconds = now() - start;
        log_(r);
      }
      return static_cast<int>(solutions.size());
    }
    ReferenceFigures ref = estimateReference(task, c, inputs[0], golden[0], arch_);
    for (const Solution* s : solutions) {
      double sampleStart = now();
      Record r = baseRecord(task, c, *s);
      evaluate(task, c, *s, inputs, golden, r);
      if (ref.ok) {
        r.limitUs = ref.limitUs;
        r.eagerUs = ref.eagerUs;
        r.eagerSource = ref.eagerSource;
      }
      r.wallSeconds = now() - sampleStart + (s == solutions.front() ? sampleStart - start : 0);
      log_(r);
    }
    return static_cast<int>(solutions.size());
  }

  BuiltKernel& build(const DslKernel& kernel, const fs::path& workDir) {
    std::string key = fmt::format("{} {}", kernel.file.string(), kernel.instantiation);
    auto it = built_.find(key);
    if (it != built_.end()) return it->second;
    BuiltKernel& b = built_[key];
    double start = now();
    std::string code, name;
    std::ostringstream diagnostics;
    int status =
        codegen::compileToAscendC({kernel.file.string(), "text", {}, kernel.bindings}, code, name, diagnostics);
    if (status != 0) {
      b.failure = classifyCompileError(diagnostics.str());
      b.message = firstLine(diagnostics.str());
      return b;
    }
    fs::create_directories(workDir);
    std::string stem = kernel.file.stem().string();
    for (const std::string& flag : kernel.bindings) stem += "_" + flag;  // one source per instantiation
    fs::path source = workDir / (safeName(stem) + ".cpp");
    writeAtomically(source, code);
    runner::BuildRequest request;
    request.source = source.string();
    runner::BuildResult result = env_.service->build(request);
    if (!result.ok) {
      // The compiler accepted the program, so C++ that does not build is the compiler's bug, not the solution's.
      b.failure = result.rejected ? Failure::SandboxViolation : Failure::Crash;
      b.message = fmt::format("internal compiler error: the generated AscendC does not build: {}",
                              firstLine(result.diagnostics));
      return b;
    }
    b.compiled = true;
    b.program = result.program;
    b.seconds = now() - start;
    return b;
  }

  void evaluate(const Task& task, const Case& c, const Solution& s, const std::vector<NamedTensor> (&inputs)[2],
                const GoldenResult (&golden)[2], Record& r) {
    std::vector<std::vector<int64_t>> inShapes, outShapes;
    {
      size_t next = 0;
      for (const CaseTensor& t : c.inputs) {
        if (!t.present) {
          inShapes.push_back({});
          continue;
        }
        inShapes.push_back(next < inputs[0].size() ? inputs[0][next].tensor.shape : t.shapes.front());
        ++next;
      }
    }
    for (const NamedTensor& o : golden[0].outputs) outShapes.push_back(o.tensor.shape);
    if (s.kind == "ascendc") return evaluateProject(task, c, s, inputs, golden, r);
    CaseBinding binding = bindCase(s, task, c, inShapes, outShapes);
    if (!binding.ok) {
      r.failure = binding.failure;
      r.message = firstLine(binding.message);
      return;
    }
    r.instantiation = binding.kernel->file.filename().string();
    if (!binding.kernel->instantiation.empty()) r.instantiation += " " + binding.kernel->instantiation;
    fs::path taskWork = fs::path(options_.outDir) / "work" / safeName(task.name) / std::to_string(s.sample);
    BuiltKernel& kernel = build(*binding.kernel, taskWork);
    if (!kernel.charged) r.kernelSeconds += kernel.seconds;
    kernel.charged = true;
    if (!kernel.compiled) {
      r.failure = kernel.failure;
      r.message = kernel.message;
      return;
    }
    r.compiled = true;
    double worstMean = 0, worstMax = 0;
    for (int seed = 0; seed < 2; ++seed) {
      fs::path runDir = taskWork / fmt::format("case-{}-seed{}", safeName(c.id), seed);
      fs::remove_all(runDir);
      fs::create_directories(runDir / "in");
      fs::create_directories(runDir / "out");
      runner::RunRequest run;
      run.program = kernel.program;
      run.args = binding.args;
      for (const NamedTensor& in : inputs[seed]) {
        auto view = binding.views.find(in.name);
        if (view == binding.views.end()) continue;  // an input the kernel does not take
        interp::HostTensor t = in.tensor;
        t.shape = view->second;
        fs::path file = runDir / "in" / (safeName(in.name) + ".npy");
        writeAtomically(file, interp::encodeNpy(t));
        run.args.push_back("--in");
        run.args.push_back(fmt::format("{}={}", in.name, file.string()));
      }
      run.args.push_back("--out-dir");
      run.args.push_back((runDir / "out").string());
      run.workDir = runDir.string();
      run.trace = seed == 0;
      run.limits.wallSeconds = options_.timeoutSeconds;
      runner::RunResult result = env_.service->run(run);
      r.kernelSeconds += result.seconds;
      if (result.status != runner::RunStatus::Passed) {
        r.failure = classifyRun(result);
        r.message =
            withoutPrefix(firstLine(result.message.empty() ? result.err : result.message), taskWork.string() + "/");
        return;
      }
      auto outputOf = [&](const std::string& name, std::string* problem) -> std::optional<interp::HostTensor> {
        fs::path file = runDir / "out" / (safeName(name) + ".npy");
        std::string error;
        std::optional<interp::HostTensor> got;
        if (fs::exists(file)) got = interp::decodeNpy(support::readFile(file).value_or(""), &error);
        if (!got) {
          *problem = fs::exists(file) ? fmt::format("output '{}': {}", name, error)
                                      : fmt::format("the kernel wrote no output '{}'", name);
        }
        return got;
      };
      if (!judgeOutputs(task, seed, golden[seed], inputs[seed], outputOf, worstMean, worstMax, r)) return;
      if (seed == 0) profile(result.tracePath, r);
    }
    r.correct = true;
  }

  // Compares one seed's outputs with the golden's, each by the rule and the anti-cheat checks; false after setting
  // the row's failure. `outputOf` gives an output by name, or nullopt with the reason there is none.
  using OutputSource = std::function<std::optional<interp::HostTensor>(const std::string&, std::string*)>;
  bool judgeOutputs(const Task& task, int seed, const GoldenResult& golden, const std::vector<NamedTensor>& inputs,
                    const OutputSource& outputOf, double& worstMean, double& worstMax, Record& r) {
    for (const NamedTensor& want : golden.outputs) {
      std::string problem;
      std::optional<interp::HostTensor> got = outputOf(want.name, &problem);
      if (!got) {
        r.failure = Failure::Signature;
        r.message = problem;
        return false;
      }
      if (got->numel() != want.tensor.numel() || got->dtype != want.tensor.dtype) {
        r.failure = Failure::Signature;
        r.message = fmt::format("output '{}' is {} but the golden is {}", want.name, interp::describe(*got),
                                interp::describe(want.tensor));
        return false;
      }
      got->shape = want.tensor.shape;
      Comparison cmp = compareOutput(want.name, *got, want.tensor, options_.rule, task);
      worstMean = std::max(worstMean, cmp.meanRelError);
      worstMax = std::max(worstMax, cmp.maxRelError);
      r.tau = cmp.tau;
      r.meanRelError = worstMean;
      r.maxRelError = worstMax;
      if (!cmp.pass) {
        r.failure = Failure::NumericMismatch;
        r.message = fmt::format("seed {}: {}", seed + 1, cmp.message);
        return false;
      }
      if (std::optional<std::string> cheat = trivialOutput(want.name, *got, want.tensor, inputs)) {
        r.failure = Failure::AntiCheat;
        r.message = fmt::format("seed {}: {}", seed + 1, *cheat);
        return false;
      }
    }
    return true;
  }

  // An AscendC solution (a custom-operator project) on both seeds: run by `tilecraft project run`'s code, judged as
  // a DSL kernel is. Its builds are kept per (task, sample), so later cases and seeds reuse them.
  void evaluateProject(const Task& task, const Case& c, const Solution& s, const std::vector<NamedTensor> (&inputs)[2],
                       const GoldenResult (&golden)[2], Record& r) {
    if (!s.error.empty()) {
      r.failure = Failure::Syntax;
      r.message = s.error;
      return;
    }
    fs::path taskWork = fs::path(options_.outDir) / "work" / safeName(task.name) / std::to_string(s.sample);
    double worstMean = 0, worstMax = 0;
    for (int seed = 0; seed < 2; ++seed) {
      ProjectCaseRun run = runProjectCase(s, task, c, inputs[seed], golden[seed].outputs, taskWork, seed == 0,
                                          options_.timeoutSeconds, *env_.service);
      r.kernelSeconds += run.seconds;
      r.instantiation = run.kernelFile;
      r.compiled = run.compiled;
      if (run.failure != Failure::None) {
        r.failure = run.failure;
        r.message = run.message;
        return;
      }
      auto outputOf = [&](const std::string& name, std::string* problem) -> std::optional<interp::HostTensor> {
        for (const NamedTensor& t : run.outputs) {
          if (t.name == name) return t.tensor;
        }
        *problem = fmt::format("the project's OpDef has no output for '{}' (outputs are the task's, in order)", name);
        return std::nullopt;
      };
      if (!judgeOutputs(task, seed, golden[seed], inputs[seed], outputOf, worstMean, worstMax, r)) return;
      if (seed == 0) profile(run.tracePath, r);
    }
    r.correct = true;
  }

  // Simulated kernel time (the slowest core's device time plus the launch floor, what a profiler's task duration
  // measures and what the eager model's kernels are priced as) and the slowest core's per-pipe busy time.
  void profile(const std::string& tracePath, Record& r) {
    if (tracePath.empty() || !fs::exists(tracePath)) return;
    try {
      perf::SimulationResult sim = perf::simulate(perf::loadTrace(tracePath), arch_);
      double device = 0;
      std::map<std::string, double> busy;
      std::string bottleneck;
      double slowest = -1;
      for (const perf::LaunchProfile& l : sim.launches) {
        device += l.totalS;
        if (l.cores.empty()) continue;
        const perf::CoreProfile& core = l.cores[static_cast<size_t>(l.slowestCore)];
        for (int p = 0; p < perf::kTracePipes; ++p) {
          std::string name(perf::tracePipeName(static_cast<perf::TracePipe>(p)));
          busy[name] += core.busy[static_cast<size_t>(p)] / l.clockHz * 1e6;
        }
        if (l.deviceS > slowest) {
          slowest = l.deviceS;
          bottleneck = l.bottleneck;
        }
      }
      r.simUs = device * 1e6;
      r.pipeBusyUs = busy;
      r.bottleneck = bottleneck;
    } catch (const perf::PerfError& e) {
      r.message = fmt::format("no timing: {}", e.what());
    }
  }

  const BenchOptions& options_;
  const BenchEnv& env_;
  const perf::ArchSpec& arch_;
  std::mutex& goldenMutex_;
  RecordSink log_;
  const std::set<std::string>& done_;
  std::map<std::string, BuiltKernel> built_;
};

struct LoadedTask {
  Task task;
  std::vector<const Case*> cases;
  std::vector<Solution> solutions;
};

}  // namespace

std::vector<Record> readResults(const std::string& path, std::vector<std::string>* problems, bool* tornTail) {
  std::vector<Record> rows;
  if (tornTail) *tornTail = false;
  std::string text = support::readFile(path).value_or("");
  size_t pos = 0;
  int line = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    bool complete = end != std::string::npos;
    std::string content = text.substr(pos, complete ? end - pos : std::string::npos);
    ++line;
    pos = complete ? end + 1 : text.size();
    if (content.empty()) continue;
    std::string error;
    std::optional<Record> r = parseRecord(content, &error);
    if (r) {
      rows.push_back(std::move(*r));
    } else if (!complete) {
      if (tornTail) *tornTail = true;
      problems->push_back(
          fmt::format("{}:{}: the last line is incomplete (the run was interrupted): it is dropped "
                      "and its row evaluated again",
                      path, line));
    } else {
      problems->push_back(fmt::format("{}:{}: {}; the line is skipped", path, line, error));
    }
  }
  return rows;
}

void writeReports(const std::vector<Record>& rows, const std::string& outDir, const std::string& title,
                  const BenchOptions& options, std::ostream& out) {
  Summary summary = summarize(rows);
  ReportInfo info;
  info.title = title;
  for (const std::string& s : options.suites) info.suite += (info.suite.empty() ? "" : " ") + s;
  info.solutions = options.solutions;
  info.rule = ruleName(options.rule);
  info.arch = options.arch;
  writeAtomically(fs::path(outDir) / kReportInfoFile, reportInfoToJson(info) + "\n");
  writeAtomically(fs::path(outDir) / "summary.md", renderMarkdown(summary, info));
  writeAtomically(fs::path(outDir) / "report.html", renderHtml(summary, info));
  out << renderTable(summary, info);
}

std::vector<Record> judgeTask(const Task& task, const std::vector<const Case*>& cases, const Solution& solution,
                              const BenchOptions& options, const BenchEnv& env, const perf::ArchSpec& arch,
                              std::mutex& goldenMutex) {
  std::vector<Record> rows;
  std::set<std::pair<std::string, int>> wanted;
  for (const Case* c : cases) wanted.insert({c->id, solution.sample});
  const std::set<std::string> none;
  TaskRun run(
      options, env, arch, goldenMutex, [&rows](const Record& r) { rows.push_back(r); }, none);
  run.run(task, cases, {solution}, wanted);
  return rows;
}

int runBench(const BenchOptions& given, const BenchEnv& env, std::ostream& out, std::ostream& err) {
  // Kernels run in their own work folder: every path they are given must be absolute.
  BenchOptions options = given;
  options.outDir = fs::absolute(given.outDir).lexically_normal().string();
  if (options.suites.empty()) {
    err << "error: no task folder given\n";
    return 2;
  }
  for (const std::string& s : options.suites) {
    if (!fs::is_directory(s)) {
      err << fmt::format("error: task folder '{}' does not exist\n", s);
      return 2;
    }
  }
  if (!options.solutions.empty() && !fs::is_directory(options.solutions)) {
    err << fmt::format("error: solutions folder '{}' does not exist\n", options.solutions);
    return 2;
  }
  fs::path outDir = options.outDir;
  fs::create_directories(outDir);
  fs::path resultsPath = outDir / "results.jsonl";

  std::vector<Record> previous;
  if (fs::exists(resultsPath)) {
    std::vector<std::string> problems;
    bool torn = false;
    previous = readResults(resultsPath.string(), &problems, &torn);
    if (!options.resume) {
      err << fmt::format(
          "error: {} already holds {} results; pass --resume to continue that run, or choose another "
          "--out\n",
          resultsPath.string(), previous.size());
      return 2;
    }
    for (const std::string& p : problems) err << "warning: " << p << '\n';
    if (torn) {
      // Drop the torn line so appended rows start on a line of their own.
      std::string text = support::readFile(resultsPath).value_or("");
      writeAtomically(resultsPath, text.substr(0, text.rfind('\n') + 1));
    }
  }
  std::set<std::string> done;
  for (const Record& r : previous) done.insert(recordKey(r));

  perf::ArchSpec arch;
  try {
    arch = perf::loadArchByName(options.arch, perf::defaultArchDir());
  } catch (const perf::PerfError& e) {
    err << "error: " << e.what() << '\n';
    return 2;
  }

  // Load every task, then pick this shard's share of the (task, case, sample) items.
  std::vector<LoadedTask> tasks;
  std::vector<Record> unloadable;
  std::vector<fs::path> dirs;
  for (const std::string& s : options.suites) {
    for (const fs::path& d : findTaskDirs(s)) dirs.push_back(d);
  }
  for (const fs::path& dir : dirs) {
    std::string name = dir.filename().string();
    if (!options.only.empty() && std::find(options.only.begin(), options.only.end(), name) == options.only.end()) {
      continue;
    }
    TaskLoad load = loadTask(dir);
    for (const TaskError& e : load.errors) err << "warning: " << e.str() << '\n';
    if (!load.task || load.task->cases.empty()) {
      Record r;
      r.task = name;
      r.caseId = "-";
      r.failure = Failure::NotEvaluable;
      r.message = load.errors.empty() ? "the task has no cases" : firstLine(load.errors.front().str());
      unloadable.push_back(r);
      continue;
    }
    LoadedTask t;
    t.task = std::move(*load.task);
    for (const Case& c : t.task.cases) {
      t.cases.push_back(&c);
      if (options.smoke) break;
    }
    t.solutions =
        findSolutions(options.solutions.empty() ? fs::path("solutions") : fs::path(options.solutions), t.task.name);
    tasks.push_back(std::move(t));
  }
  std::vector<WorkItem> items;
  for (const LoadedTask& t : tasks) {
    for (const Case* c : t.cases) {
      for (const Solution& s : t.solutions) items.push_back({t.task.name, c->id, s.sample});
    }
  }
  std::vector<std::string> keys;
  for (const WorkItem& w : items) keys.push_back(fmt::format("{}/{}/{}", w.task, w.caseId, w.sample));
  std::map<std::string, std::set<std::pair<std::string, int>>> wanted;
  for (size_t i : shardItems(keys, {options.shardIndex, options.shardCount})) {
    wanted[items[i].task].insert({items[i].caseId, items[i].sample});
  }

  int total = 0, alreadyDone = 0;
  for (const auto& [task, keys] : wanted) {
    for (const auto& [caseId, sample] : keys) {
      ++total;
      alreadyDone += done.count(fmt::format("{}/{}/{}", task, caseId, sample)) ? 1 : 0;
    }
  }
  StreamProgressOutput progressOut(err);
  SteadyProgressClock steady;
  FunctionProgressClock envClock(env.clock ? env.clock : std::function<double()>([] { return 0.0; }));
  std::optional<Progress> progress;
  if (!options.quiet) {
    progress.emplace(total, alreadyDone, ProgressOptions{options.terminal, options.terminalWidth}, progressOut,
                     env.clock ? static_cast<ProgressClock&>(envClock) : static_cast<ProgressClock&>(steady));
  }
  ResultLog log(resultsPath, progress ? &*progress : nullptr);
  for (const Record& r : unloadable) {
    if (!done.count(recordKey(r)) && options.shardIndex == 0) log.append(r);
  }
  std::mutex goldenMutex;
  std::atomic<size_t> next{0};
  // No worker thread ends before all have finished: the golden worker process dies with the thread that started
  // it (PR_SET_PDEATHSIG follows the thread, not the process), and another thread may still be using it.
  int threads = std::max(1, std::min<int>(options.jobs, static_cast<int>(tasks.size())));
  std::mutex busyMutex;
  std::condition_variable allDone;
  int busy = threads;
  auto worker = [&] {
    {
      TaskRun runOne(
          options, env, arch, goldenMutex, [&log](const Record& r) { log.append(r); }, done);
      for (size_t i = next++; i < tasks.size(); i = next++) {
        const LoadedTask& t = tasks[i];
        if (!wanted.count(t.task.name)) continue;
        runOne.run(t.task, t.cases, t.solutions, wanted[t.task.name]);
      }
    }
    std::unique_lock<std::mutex> lock(busyMutex);
    if (--busy == 0) allDone.notify_all();
    allDone.wait(lock, [&] { return busy == 0; });
  };
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  if (progress) progress->done();

  std::vector<std::string> problems;
  std::vector<Record> rows = readResults(resultsPath.string(), &problems);
  for (const std::string& p : problems) err << "warning: " << p << '\n';
  writeReports(rows, outDir.string(), "tilecraft bench", options, out);
  return 0;
}

}  // namespace tilecraft::harness
