// The Python golden runner: requests to harness/python/golden_worker.py (protocol in docs/goldens.md), .npy
// files in a scratch folder, and a disk cache keyed by the content of everything that decides the result.
#include "harness/golden.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/case_parse.h"
#include "harness/python_worker.h"
#include "interp/npy.h"
#include "support/files.h"

#ifndef TILECRAFT_HARNESS_PYTHON_DIR
#define TILECRAFT_HARNESS_PYTHON_DIR ""
#endif

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Bumped whenever the cache layout or the meaning of a cached result changes.
constexpr const char* kCacheVersion = "tilecraft-golden-cache-1";
constexpr double kStartupSeconds = 120;

bool writeFile(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  return static_cast<bool>(out);
}

// 128-bit FNV-1a (two independent 64-bit lanes): a content address, not a defence against forged inputs.
class ContentHash {
 public:
  void add(std::string_view bytes) {
    addRaw(fmt::format("{}:", bytes.size()));
    addRaw(bytes);
  }
  std::string hex() const { return fmt::format("{:016x}{:016x}", a_, b_); }

 private:
  void addRaw(std::string_view bytes) {
    for (unsigned char ch : bytes) {
      a_ = (a_ ^ ch) * 0x100000001b3ULL;
      b_ = (b_ ^ static_cast<unsigned char>(ch + 0x5b)) * 0x100000001b3ULL;
    }
  }
  uint64_t a_ = 0xcbf29ce484222325ULL;
  uint64_t b_ = 0x84222325cbf29ce4ULL;
};

Json rangeJson(const std::optional<std::pair<double, double>>& r) {
  if (!r) return nullptr;
  auto one = [](double v) -> Json {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
  };
  return Json::array({one(r->first), one(r->second)});
}

std::string lastLines(const std::string& text, int n) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  size_t from = lines.size() > static_cast<size_t>(n) ? lines.size() - static_cast<size_t>(n) : 0;
  std::string out;
  for (size_t i = from; i < lines.size(); ++i) out += (i > from ? "\n" : "") + lines[i];
  return out;
}

AtenOp atenOpFromJson(const Json& j) {
  AtenOp op;
  op.name = j.value("name", "");
  op.inShapes = j.value("in_shapes", std::vector<std::vector<int64_t>>{});
  op.outShapes = j.value("out_shapes", std::vector<std::vector<int64_t>>{});
  op.inDtypes = j.value("in_dtypes", std::vector<std::string>{});
  op.outDtypes = j.value("out_dtypes", std::vector<std::string>{});
  return op;
}

Json atenOpToJson(const AtenOp& op) {
  return Json{{"name", op.name},
              {"in_shapes", op.inShapes},
              {"out_shapes", op.outShapes},
              {"in_dtypes", op.inDtypes},
              {"out_dtypes", op.outDtypes}};
}

GoldenResult failure(std::string error) {
  GoldenResult r;
  r.error = std::move(error);
  return r;
}

class PythonGoldenRunner final : public GoldenRunner {
 public:
  explicit PythonGoldenRunner(PythonGoldenOptions options) : options_(std::move(options)) {
    if (options_.workerDir.empty()) options_.workerDir = TILECRAFT_HARNESS_PYTHON_DIR;
    if (options_.workDir.empty()) {
      options_.workDir = fs::temp_directory_path() / fmt::format("tilecraft-golden-{}-{}", ::getpid(), ++instances_);
      ownsWorkDir_ = true;
    }
    std::error_code ec;
    fs::create_directories(options_.workDir, ec);
    worker_ = std::make_unique<LineWorker>(
        std::vector<std::string>{options_.python, "-B", (options_.workerDir / "golden_worker.py").string()},
        options_.workDir / "worker.log");
  }

  GoldenResult run(const Task& task, const Case& c, const std::vector<NamedTensor>& inputs) override {
    std::lock_guard lock(mutex_);
    std::string where = fmt::format("golden of {} case {}", task.name, c.id);
    std::vector<dsl::DType> outDtypes = task.outputDtypes(c);

    Json attrs = Json::parse(c.attrsJson, nullptr, false);
    if (attrs.is_discarded() || !attrs.is_object()) {
      return failure(fmt::format("{}: the case's attributes are not a JSON object: {}", where, c.attrsJson));
    }
    RequestDir dir(nextRequestDir());
    Json inputSpecs = Json::array();
    std::vector<std::string> encoded;  // for the cache key, in order
    std::string error;
    if (!writeInputs(task, c, inputs, dir.path, inputSpecs, encoded, &error)) return failure(where + ": " + error);

    Json outputs = Json::array();
    for (size_t i = 0; i < task.outputs.size(); ++i) {
      outputs.push_back({{"name", task.outputs[i].name}, {"dtype", cannDtypeName(outDtypes[i])}});
    }
    std::vector<std::string> functions = goldenFunctionCandidates(task);

    std::optional<std::string> golden = support::readFile(task.dir / "golden.py");
    if (!golden) return failure(fmt::format("{}: cannot read {}", where, (task.dir / "golden.py").string()));
    std::string key;
    if (!options_.cacheDir.empty()) {
      ContentHash h;
      h.add(kCacheVersion);
      h.add(*golden);
      h.add(support::readFile(options_.workerDir / "torch_compat.py").value_or(""));
      h.add(support::readFile(options_.workerDir / "golden_worker.py").value_or(""));
      h.add(Json(functions).dump());
      h.add(attrs.dump());
      h.add(outputs.dump());
      for (const std::string& e : encoded) h.add(e);
      key = h.hex();
      if (auto hit = readCache(task, key)) return *hit;
    }

    Json req = {{"op", "golden"},
                {"task_dir", fs::absolute(task.dir).string()},
                {"functions", functions},
                {"inputs", inputSpecs},
                {"attrs", attrs},
                {"outputs", outputs},
                {"out_dir", (dir.path / "out").string()}};
    Json reply;
    if (!call(req, where, &reply, &error)) return failure(error);

    GoldenResult result;
    result.seconds = reply.value("seconds", 0.0);
    for (const Json& op : reply.value("ops", Json::array())) result.ops.push_back(atenOpFromJson(op));
    std::vector<std::pair<std::string, fs::path>> files;
    const Json& outs = reply["outputs"];
    for (size_t i = 0; i < outs.size(); ++i) {
      std::string name = i < task.outputs.size() ? task.outputs[i].name : fmt::format("output{}", i);
      if (outs[i].is_null()) continue;
      if (outs[i].is_array()) {
        for (size_t k = 0; k < outs[i].size(); ++k)
          files.emplace_back(fmt::format("{}.{}", name, k), outs[i][k].get<std::string>());
      } else {
        files.emplace_back(name, outs[i].get<std::string>());
      }
    }
    for (const auto& [name, path] : files) {
      std::optional<std::string> bytes = support::readFile(path);
      std::string why;
      std::optional<interp::HostTensor> t = bytes ? interp::decodeNpy(*bytes, &why) : std::nullopt;
      if (!t) return failure(fmt::format("{}: output {}: {}", where, name, bytes ? why : "the worker wrote no file"));
      result.outputs.push_back({name, std::move(*t)});
    }
    result.ok = true;
    if (!key.empty()) writeCache(key, result, files);
    return result;
  }

  GoldenResult makeInputs(const Task& task, const Case& c, uint64_t seed) override {
    std::lock_guard lock(mutex_);
    return inputsRequest(task, c, seed, nullptr);
  }

  GoldenResult prepareInputs(const Task& task, const Case& c, const std::vector<NamedTensor>& generated) override {
    std::lock_guard lock(mutex_);
    std::optional<std::string> golden = support::readFile(task.dir / "golden.py");
    // No hook: nothing to ask Python.
    if (!golden || golden->find("get_input") == std::string::npos) {
      GoldenResult r;
      r.ok = true;
      r.outputs = generated;
      return r;
    }
    return inputsRequest(task, c, 0, &generated);
  }

  ~PythonGoldenRunner() override {
    worker_->stop();
    std::error_code ec;
    fs::remove_all(ownsWorkDir_ ? options_.workDir : options_.workDir / "requests", ec);
  }

 private:
  // A request's scratch folder, removed when the request is done, whatever its outcome.
  struct RequestDir {
    explicit RequestDir(fs::path p) : path(std::move(p)) {}
    RequestDir(const RequestDir&) = delete;
    RequestDir& operator=(const RequestDir&) = delete;
    ~RequestDir() { removeDir(path); }
    fs::path path;
  };

  fs::path nextRequestDir() {
    fs::path dir = options_.workDir / "requests" / fmt::format("{}", ++requests_);
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir, ec);
    return dir;
  }

  static void removeDir(const fs::path& dir) {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  // Writes the case's inputs as .npy files, proto order: null for an absent input, a list for a tensor list.
  bool writeInputs(const Task& task, const Case& c, const std::vector<NamedTensor>& inputs, const fs::path& dir,
                   Json& specs, std::vector<std::string>& encoded, std::string* error) {
    auto find = [&](const std::string& name) -> const NamedTensor* {
      for (const NamedTensor& t : inputs) {
        if (t.name == name) return &t;
      }
      return nullptr;
    };
    auto write = [&](const NamedTensor& t, Json& into) {
      std::string bytes = interp::encodeNpy(t.tensor);
      fs::path path = dir / fmt::format("in{}.npy", encoded.size());
      encoded.push_back(t.name + "=" + bytes);
      if (!writeFile(path, bytes)) return false;
      into = path.string();
      return true;
    };
    for (size_t i = 0; i < task.inputs.size(); ++i) {
      const TensorDecl& decl = task.inputs[i];
      bool present = i < c.inputs.size() ? c.inputs[i].present : false;
      bool isList = i < c.inputs.size() ? c.inputs[i].isList : decl.isList;
      if (!present) {
        specs.push_back(nullptr);
        encoded.push_back(decl.name + "=null");
        continue;
      }
      if (isList) {
        Json list = Json::array();
        for (size_t k = 0;; ++k) {
          const NamedTensor* t = find(fmt::format("{}.{}", decl.name, k));
          if (t == nullptr) break;
          Json p;
          if (!write(*t, p)) return (*error = fmt::format("cannot write {}", dir.string()), false);
          list.push_back(p);
        }
        if (list.empty()) return (*error = fmt::format("no tensors for the tensor list input '{}'", decl.name), false);
        specs.push_back(list);
        continue;
      }
      const NamedTensor* t = find(decl.name);
      if (t == nullptr) return (*error = fmt::format("no tensor for input '{}'", decl.name), false);
      Json p;
      if (!write(*t, p)) return (*error = fmt::format("cannot write {}", dir.string()), false);
      specs.push_back(p);
    }
    return true;
  }

  GoldenResult inputsRequest(const Task& task, const Case& c, uint64_t seed, const std::vector<NamedTensor>* base) {
    std::string where = fmt::format("inputs of {} case {}", task.name, c.id);
    Json attrs = Json::parse(c.attrsJson, nullptr, false);
    if (attrs.is_discarded() || !attrs.is_object()) attrs = Json::object();
    Json shapes = Json::array(), dtypes = Json::array(), ranges = Json::array(), names = Json::array();
    for (size_t i = 0; i < task.inputs.size(); ++i) {
      names.push_back(task.inputs[i].name);
      if (i >= c.inputs.size() || !c.inputs[i].present) {
        shapes.push_back(nullptr);
        dtypes.push_back(nullptr);
        ranges.push_back(nullptr);
        continue;
      }
      const CaseTensor& t = c.inputs[i];
      shapes.push_back(t.isList ? Json(t.shapes) : Json(t.shapes.front()));
      dtypes.push_back(cannDtypeName(t.dtype));
      ranges.push_back(rangeJson(t.valueRange));
    }
    RequestDir dir(nextRequestDir());
    Json req = {{"op", "inputs"},
                {"task_dir", fs::absolute(task.dir).string()},
                {"case", {{"shapes", shapes}, {"dtypes", dtypes}, {"value_ranges", ranges}, {"attrs", attrs}}},
                {"seed", seed},
                {"names", names},
                {"dtypes", dtypes},
                {"out_dir", (dir.path / "out").string()}};
    std::string error;
    if (base != nullptr) {
      Json specs = Json::array();
      std::vector<std::string> encoded;
      if (!writeInputs(task, c, *base, dir.path, specs, encoded, &error)) return failure(where + ": " + error);
      req["base"] = specs;
    }
    Json reply;
    if (!call(req, where, &reply, &error)) return failure(error);
    GoldenResult result;
    const Json& ins = reply["inputs"];
    for (size_t i = 0; i < ins.size() && i < task.inputs.size(); ++i) {
      std::vector<std::pair<std::string, std::string>> files;
      if (ins[i].is_null()) continue;
      if (ins[i].is_array()) {
        for (size_t k = 0; k < ins[i].size(); ++k)
          files.emplace_back(fmt::format("{}.{}", task.inputs[i].name, k), ins[i][k]);
      } else {
        files.emplace_back(task.inputs[i].name, ins[i]);
      }
      for (const auto& [name, path] : files) {
        std::optional<std::string> bytes = support::readFile(path);
        std::string why;
        std::optional<interp::HostTensor> t = bytes ? interp::decodeNpy(*bytes, &why) : std::nullopt;
        if (!t) return failure(fmt::format("{}: input {}: {}", where, name, bytes ? why : "the worker wrote no file"));
        result.outputs.push_back({name, std::move(*t)});
      }
    }
    result.ok = true;
    return result;
  }

  // One request, the worker started (again) when needed. Every failure is this request's error; the worker
  // is killed after a timeout or a crash and starts afresh on the next request.
  bool call(const Json& req, const std::string& where, Json* reply, std::string* error) {
    if (!worker_->running()) {
      // Importing torch takes seconds on a loaded machine: start-up gets at least kStartupSeconds.
      LineReply ready = worker_->start(std::max(options_.timeoutSeconds, kStartupSeconds));
      Json banner = ready.ok ? Json::parse(ready.line, nullptr, false) : Json();
      if (!ready.ok || banner.is_discarded() || !banner.value("ok", false)) {
        std::string said =
            ready.ok && !banner.is_discarded() ? banner.value("error", ready.line) : worker_->stderrTail(8);
        worker_->stop();
        *error = fmt::format("{}: the golden worker ({}) did not start ({}): {}", where, options_.python,
                             ready.timedOut
                                 ? fmt::format("no answer in {} s", std::max(options_.timeoutSeconds, kStartupSeconds))
                                 : (ready.ok ? "it reported an error" : ready.failure),
                             lastLines(said, 6));
        return false;
      }
    }
    LineReply r = worker_->request(req.dump(), options_.timeoutSeconds);
    if (!r.ok) {
      if (r.timedOut) {
        *error = fmt::format("{}: timed out after {} s; the golden worker was killed and restarts for the next request",
                             where, options_.timeoutSeconds);
      } else {
        *error = fmt::format("{}: the golden worker died ({}); it restarts for the next request. Its last output:\n{}",
                             where, r.failure, worker_->stderrTail(6));
      }
      return false;
    }
    *reply = Json::parse(r.line, nullptr, false);
    if (reply->is_discarded()) {
      worker_->stop();
      *error = fmt::format("{}: the golden worker answered a line that is not JSON: {}", where, r.line.substr(0, 200));
      return false;
    }
    if (!reply->value("ok", false)) {
      *error = fmt::format("{}: {}", where, reply->value("error", std::string("unknown error")));
      return false;
    }
    return true;
  }

  std::optional<GoldenResult> readCache(const Task& task, const std::string& key) {
    fs::path entry = options_.cacheDir / key.substr(0, 2) / key;
    std::optional<std::string> text = support::readFile(entry / "result.json");
    if (!text) return std::nullopt;
    Json j = Json::parse(*text, nullptr, false);
    if (j.is_discarded()) return std::nullopt;
    GoldenResult r;
    for (const Json& op : j.value("ops", Json::array())) r.ops.push_back(atenOpFromJson(op));
    for (const Json& o : j.value("outputs", Json::array())) {
      std::optional<std::string> bytes = support::readFile(entry / o.value("file", ""));
      std::string why;
      std::optional<interp::HostTensor> t = bytes ? interp::decodeNpy(*bytes, &why) : std::nullopt;
      if (!t) return std::nullopt;  // a damaged entry is recomputed
      r.outputs.push_back({o.value("name", ""), std::move(*t)});
    }
    (void)task;
    r.ok = true;
    r.cached = true;
    return r;
  }

  // Written to a scratch folder and renamed into place, so a reader never sees half an entry.
  void writeCache(const std::string& key, const GoldenResult& r,
                  const std::vector<std::pair<std::string, fs::path>>& files) {
    std::error_code ec;
    fs::path entry = options_.cacheDir / key.substr(0, 2) / key;
    fs::path tmp = options_.cacheDir / key.substr(0, 2) / fmt::format(".{}.{}.tmp", key, ::getpid());
    fs::create_directories(tmp, ec);
    if (ec) return;
    Json outs = Json::array();
    for (size_t i = 0; i < files.size(); ++i) {
      std::string file = fmt::format("out{}.npy", i);
      fs::copy_file(files[i].second, tmp / file, fs::copy_options::overwrite_existing, ec);
      if (ec) return removeDir(tmp);
      outs.push_back({{"name", files[i].first}, {"file", file}});
    }
    Json ops = Json::array();
    for (const AtenOp& op : r.ops) ops.push_back(atenOpToJson(op));
    if (!writeFile(tmp / "result.json", Json{{"outputs", outs}, {"ops", ops}}.dump(1))) return removeDir(tmp);
    fs::rename(tmp, entry, ec);
    if (ec) removeDir(tmp);  // another process wrote it first: theirs is as good
  }

  PythonGoldenOptions options_;
  std::unique_ptr<LineWorker> worker_;
  std::mutex mutex_;
  uint64_t requests_ = 0;
  bool ownsWorkDir_ = false;
  static inline std::atomic<int> instances_ = 0;
};

// Whether `path` names an interpreter that imports torch; `said` is what it answered otherwise.
bool importsTorch(const std::string& path, support::ProcessRunner& runner, std::string* said) {
  support::ProcessSpec spec;
  spec.argv = {path, "-B", "-c", "import torch, sys; sys.stdout.write(torch.__version__)"};
  spec.timeoutSeconds = 120;
  support::ProcessResult r = runner.run(spec);
  if (r.exitCode == 0) return true;
  std::string text = r.timedOut ? "timed out" : lastLines(r.err.empty() ? r.out : r.err, 1);
  if (text.empty()) text = fmt::format("exit status {}", r.exitCode);
  *said = text;
  return false;
}

}  // namespace

std::vector<PythonCandidate> defaultPythonCandidates() {
  std::vector<PythonCandidate> out;
  if (const char* env = std::getenv("TILECRAFT_PYTHON"); env != nullptr && *env != '\0') {
    out.push_back({"$TILECRAFT_PYTHON", env});
  }
  out.push_back({"/usr/bin/python3", "/usr/bin/python3"});
  std::string inPath;
  if (const char* path = std::getenv("PATH"); path != nullptr) {
    std::istringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      if (dir.empty()) continue;
      fs::path candidate = fs::path(dir) / "python3";
      if (::access(candidate.c_str(), X_OK) == 0) {
        inPath = candidate.string();
        break;
      }
    }
  }
  out.push_back({"python3 in PATH", inPath});
  return out;
}

std::optional<std::string> findTorchPythonAmong(const std::vector<PythonCandidate>& candidates,
                                                support::ProcessRunner& runner, std::string* why) {
  std::vector<std::string> tried;
  for (const PythonCandidate& c : candidates) {
    if (c.path.empty()) {
      tried.push_back(fmt::format("{}: none", c.label));
      continue;
    }
    if (::access(c.path.c_str(), X_OK) != 0) {
      tried.push_back(c.label == c.path ? fmt::format("{}: not found", c.label)
                                        : fmt::format("{} = {}: not found", c.label, c.path));
      continue;
    }
    std::string said;
    if (importsTorch(c.path, runner, &said)) return c.path;
    tried.push_back(c.label == c.path ? fmt::format("{}: {}", c.label, said)
                                      : fmt::format("{} = {}: {}", c.label, c.path, said));
  }
  if (why != nullptr) {
    std::string list;
    for (const std::string& t : tried) list += "\n  " + t;
    *why = fmt::format(
        "no Python interpreter with PyTorch found; tried:{}\nhint: install Debian's python3-torch "
        "(apt-get install python3-torch provides /usr/bin/python3 with torch), or set TILECRAFT_PYTHON to an "
        "interpreter that imports torch",
        list);
  }
  return std::nullopt;
}

std::optional<std::string> findTorchPython(std::string* why) {
  support::SystemProcessRunner runner;
  return findTorchPythonAmong(defaultPythonCandidates(), runner, why);
}

std::unique_ptr<GoldenRunner> makePythonGoldenRunner(const PythonGoldenOptions& options) {
  return std::make_unique<PythonGoldenRunner>(options);
}

}  // namespace tilecraft::harness
