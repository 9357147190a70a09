#include "project/project_run.h"

#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "interp/compare.h"
#include "interp/npy.h"
#include "project/driver_source.h"
#include "project/operator_info.h"
#include "project/tensor_bytes.h"
#include "support/files.h"

namespace tilecraft::project {

namespace fs = std::filesystem;

namespace {

// Messages name the project's files as the user spelled its folder, not as the build saw them.
std::string userPaths(std::string text, const ProjectLayout& layout) {
  text = mapSourceLines(std::move(text), layout.sources);
  std::string from = layout.absDir + "/";
  std::string to = layout.dir.empty() || layout.dir == "." ? "" : layout.dir + (layout.dir.back() == '/' ? "" : "/");
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

bool splitSpec(const std::string& spec, std::string& name, std::string& value, bool emptyValue = false) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || (eq + 1 == spec.size() && !emptyValue)) return false;
  name = spec.substr(0, eq);
  value = spec.substr(eq + 1);
  return true;
}

// "2,3,4" as dims; false unless every entry is a whole number.
bool parseDims(const std::string& text, std::vector<int64_t>& dims) {
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    if (part.empty() || part.size() > 18 || part.find_first_not_of("0123456789") != std::string::npos) return false;
    dims.push_back(std::stoll(part));
  }
  return !dims.empty() && text.back() != ',';
}

struct Work {
  fs::path root;
  bool temporary = false;
  ~Work() {
    std::error_code ec;
    if (temporary) fs::remove_all(root, ec);
  }
};

std::optional<std::string> makeWork(const std::string& keepDir, Work& work) {
  if (!keepDir.empty()) {
    std::error_code ec;
    fs::create_directories(keepDir, ec);
    if (ec) return fmt::format("error: --keep {}: cannot create the folder: {}", keepDir, ec.message());
    work.root = fs::absolute(keepDir);
    return std::nullopt;
  }
  std::string pattern = (fs::temp_directory_path() / "tilecraft-project-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return std::string("error: cannot create a temporary folder");
  work.root = pattern;
  work.temporary = true;
  return std::nullopt;
}

runner::Limits runLimits(double seconds) {
  runner::Limits limits;
  limits.wallSeconds = seconds;
  return limits;
}

bool writeOrSay(const fs::path& path, const std::string& bytes, std::ostream& err) {
  std::string error;
  if (support::writeFileAtomically(path, bytes, &error)) return true;
  err << "error: " << error << '\n';
  return false;
}

// A program's failed run as the user should read it; the exit status it maps to.
int reportRun(const char* what, const runner::RunResult& run, const ProjectLayout& layout, std::ostream& err) {
  if (run.status == runner::RunStatus::CheckFailed) {
    err << userPaths(run.message, layout);
    if (!run.message.empty() && run.message.back() != '\n') err << '\n';
    return 3;
  }
  std::string text = userPaths(run.err, layout);
  if (!text.empty()) err << text << (text.back() == '\n' ? "" : "\n");
  err << fmt::format("error: the {} program failed: {} ({})\n", what, runner::runStatusName(run.status),
                     userPaths(run.message, layout));
  return run.exitCode == 2 ? 2 : 1;
}

// One tensor the kernel sees: a plain argument, or the `index`-th element of a tensor-list (dynamic) one.
constexpr int kShapeWordType = 9;  // ge::DT_INT64: the shape words are uint64, of the same 8 bytes
constexpr size_t kShapeWords = 9;  // per OutputShapeDependOnCompute output: the rank, then up to 8 dims

struct Buffer {
  std::string name;
  int type = 0;                // a ge::DataType value
  std::vector<int64_t> shape;  // the operator's
  bool isOutput = false;
  int index = -1;
  size_t output = 0;  // an output's place in the OpDef
  std::string label() const { return index < 0 ? name : fmt::format("{}[{}]", name, index); }
  std::string fileName() const { return index < 0 ? name + ".npy" : fmt::format("{}_{}.npy", name, index); }
};

// The files of a NAME=FILE spec: a dynamic (tensor-list) parameter takes FILE,FILE,... (one per element).
std::vector<std::string> specFiles(const std::string& value, bool list) {
  std::vector<std::string> files;
  if (!list) return {value};
  size_t from = 0;
  for (size_t comma; (comma = value.find(',', from)) != std::string::npos; from = comma + 1)
    files.push_back(value.substr(from, comma - from));
  files.push_back(value.substr(from));
  return files;
}

class ProjectRun {
 public:
  ProjectRun(const ProjectOptions& options, runner::BuildRunService& service, std::ostream& out, std::ostream& err,
             ProjectOutcome& outcome)
      : options_(options), service_(service), out_(out), err_(err), outcome_(outcome) {}

  int run() {
    if (options_.sync != "project" && options_.sync != "auto" && options_.sync != "strict") {
      return usage(fmt::format("error: --sync {}: not a sync mode; hint: project, auto or strict", options_.sync));
    }
    if (options_.faults != "error" && options_.faults != "warn") {
      return usage(fmt::format("error: --faults {}: not a fault mode; hint: error or warn", options_.faults));
    }
    for (const std::string& dir : options_.includeDirs) {
      std::error_code ec;
      if (!fs::is_directory(dir, ec)) return usage(fmt::format("error: --include {}: no such folder", dir));
    }
    if (auto e = makeWork(options_.keepDir, work_)) return usage(*e);
    std::string error;
    if (!openLayout(options_.dir, work_.root / "submission", layout_, &error)) {
      if (isSnippetPath(options_.dir)) outcome_.stage = ProjectOutcome::Stage::Unpack;
      return usage(error);
    }
    outcome_.kernelFile = fs::path(layout_.kernelSource).filename().string();
    outcome_.stage = ProjectOutcome::Stage::HostBuild;
    if (int status = buildHost()) return status;
    outcome_.stage = ProjectOutcome::Stage::HostRun;
    if (int status = describe()) return status;
    outcome_.stage = ProjectOutcome::Stage::Setup;
    if (int status = readInputs()) return status;
    outcome_.stage = ProjectOutcome::Stage::HostRun;
    if (int status = runHost()) return status;
    outcome_.stage = ProjectOutcome::Stage::KernelBuild;
    if (int status = runKernel()) return status;
    outcome_.stage = ProjectOutcome::Stage::Finished;
    return finish();
  }

 private:
  int usage(const std::string& message) {
    err_ << message << '\n';
    return 2;
  }

  void addIncludes(runner::BuildRequest& request) const {
    for (const std::string& dir : options_.includeDirs) request.includeDirs.push_back(fs::absolute(dir).string());
  }
  bool autoSync() const { return options_.sync == "auto" || (options_.sync == "project" && layout_.autoSync); }

  int buildHost() {
    fs::path dir = work_.root / "host";
    fs::create_directories(dir);
    if (!writeOrSay(dir / "host_main.cpp", hostDriverSource(), err_)) return 1;
    runner::BuildRequest request;
    request.source = (dir / "host_main.cpp").string();
    request.moreSources = layout_.hostSources;
    // CANN links op_host's files into separate libraries (optiling, opsproto, op_host_aclnn: the project's
    // CMakeLists.txt says which), so a function a shared header defines non-inline exists once per library. In one
    // program the first definition serves (GeluQuant's GetMod, in its tiling header).
    request.linkFlags = {"-Wl,--allow-multiple-definition"};
    request.includeDirs = {(fs::path(layout_.absDir) / "op_host").string()};
    addIncludes(request);
    request.warnings = false;  // the project's own code: its warnings are not ours to fail on
    runner::BuildResult built = service_.build(request);
    outcome_.seconds += built.seconds;
    if (!built.ok) {
      outcome_.diagnostics = userPaths(built.diagnostics, layout_);
      err_ << outcome_.diagnostics;
      err_ << fmt::format("error: {}/op_host does not build against the emulator's host API\n", layout_.dir);
      return 1;
    }
    hostProgram_ = built.program;
    return 0;
  }

  // The records the host program wrote to its last argument, or nullopt after reporting why there are none.
  std::optional<std::string> runHostProgram(std::vector<std::string> args, int& status) {
    runner::RunRequest request;
    request.program = hostProgram_;
    request.args = std::move(args);
    request.workDir = (work_.root / "host").string();
    request.readOnlyPaths = {layout_.absDir};
    request.limits = runLimits(options_.timeoutSeconds);
    fs::path records = work_.root / "host" / request.args.back();
    std::error_code ec;
    fs::remove(records, ec);
    runner::RunResult result = service_.run(request);
    outcome_.seconds += result.seconds;
    if (result.status != runner::RunStatus::Passed) {
      outcome_.run = result;
      status = reportRun("host", result, layout_, err_);
      return std::nullopt;
    }
    std::optional<std::string> text = support::readFile(records);
    if (!text) {
      err_ << "error: the host program wrote no records\n";
      status = 1;
    }
    return text;
  }

  int describe() {
    int status = 0;
    auto result = runHostProgram({"describe", "describe.txt"}, status);
    if (!result) return status;
    std::string error;
    auto info = parseDescription(*result, &error);
    if (!info) {
      err_ << "error: " << error << '\n';
      return 1;
    }
    info_ = *info;
    info_.location = userPaths(info_.location, layout_);
    entry_ = kernelEntryName(info_.type);
    out_ << fmt::format("project {}: operator {} ({}), kernel {} ({}), {} input(s), {} output(s)\n", layout_.dir,
                        info_.type, info_.location, entry_, userPaths(layout_.kernelSource, layout_),
                        info_.inputs.size(), info_.outputs.size());
    return 0;
  }

  std::optional<OpTensor> readNpy(const std::string& flag, const std::string& name, const std::string& file) {
    std::optional<std::string> bytes = support::readFile(file);
    if (!bytes) {
      err_ << fmt::format("error: {} {}: no such file '{}'\n", flag, name, file);
      return std::nullopt;
    }
    std::string error;
    bool complex64 = false;
    auto tensor = interp::decodeNpy(*bytes, &error, &complex64);
    if (!tensor) {
      err_ << fmt::format("error: {} {}: {}: {}\n", flag, name, file, error);
      return std::nullopt;
    }
    return OpTensor{std::move(*tensor), complex64};
  }

  // A name, or `#N` for the N-th (as positional callers such as benchmark scripts know them).
  static int indexOf(const std::vector<ParamInfo>& params, const std::string& name) {
    if (name.size() > 1 && name[0] == '#' && std::all_of(name.begin() + 1, name.end(), ::isdigit)) {
      size_t i = std::stoul(name.substr(1));
      return i < params.size() ? static_cast<int>(i) : -1;
    }
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i].name == name) return static_cast<int>(i);
    return -1;
  }

  static std::string names(const std::vector<ParamInfo>& params) {
    std::string s;
    for (const ParamInfo& p : params) s += (s.empty() ? "" : ", ") + p.name;
    return s;
  }

  // The tensors of one --in or --expect spec; false after reporting why not.
  bool readList(const char* flag, const std::string& name, const std::string& value, bool list,
                std::vector<OpTensor>& tensors) {
    for (const std::string& file : specFiles(value, list)) {
      if (file.empty()) {
        err_ << fmt::format("error: {} {}: an empty file name in '{}' (a tensor list is FILE,FILE,...)\n", flag, name,
                            value);
        return false;
      }
      auto tensor = readNpy(flag, name, file);
      if (!tensor) return false;
      tensors.push_back(*tensor);
    }
    return true;
  }
  int readInputs() {
    inputs_.assign(info_.inputs.size(), {});
    for (const std::string& spec : options_.inputs) {
      std::string name, file;
      if (!splitSpec(spec, name, file)) return usage(fmt::format("error: --in takes NAME=FILE.npy, got '{}'", spec));
      int i = indexOf(info_.inputs, name);
      if (i < 0) {
        return usage(fmt::format("error: --in {}: {} has no input '{}' (its inputs: {})", name, info_.type, name,
                                 names(info_.inputs)));
      }
      auto& tensors = inputs_[static_cast<size_t>(i)];
      tensors.clear();
      if (!readList("--in", name, file, info_.inputs[static_cast<size_t>(i)].option == "dynamic", tensors)) return 2;
    }
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (info_.inputs[i].option == "dynamic" && inputs_[i].empty()) {
        return usage(fmt::format("error: input '{}' of {} is a tensor list with no data: pass --in {}=FILE.npy,...",
                                 info_.inputs[i].name, info_.type, info_.inputs[i].name));
      }
      if (inputs_[i].empty() && info_.inputs[i].option == "required") {
        return usage(fmt::format("error: input '{}' of {} has no data: pass --in {}=FILE.npy", info_.inputs[i].name,
                                 info_.type, info_.inputs[i].name));
      }
    }
    for (const std::string& spec : options_.expects) {
      std::string name, file;
      if (!splitSpec(spec, name, file))
        return usage(fmt::format("error: --expect takes NAME=FILE.npy, got '{}'", spec));
      if (indexOf(info_.outputs, name) < 0 && indexOf(info_.inputs, name) < 0) {
        return usage(fmt::format("error: --expect {}: {} has no output or input '{}' (its outputs: {})", name,
                                 info_.type, name, names(info_.outputs)));
      }
      int o = indexOf(info_.outputs, name);
      int i = indexOf(info_.inputs, name);
      const ParamInfo& param = o >= 0 ? info_.outputs[static_cast<size_t>(o)] : info_.inputs[static_cast<size_t>(i)];
      std::vector<OpTensor> tensors;
      if (!readList("--expect", name, file, param.option == "dynamic", tensors)) return 2;
      expects_[o >= 0 ? param.name : name] = tensors;
    }
    for (const std::string& spec : options_.shapes) {
      std::string name, dims;
      std::vector<int64_t> shape;
      if (!splitSpec(spec, name, dims) || !parseDims(dims, shape))
        return usage(fmt::format("error: --shape takes NAME=D0,D1,... (whole numbers), got '{}'", spec));
      int o = indexOf(info_.outputs, name);
      if (o < 0 || info_.outputs[static_cast<size_t>(o)].option == "dynamic") {
        return usage(fmt::format("error: --shape {}: {} has no output '{}' that is one tensor (its outputs: {})", name,
                                 info_.type, name, names(info_.outputs)));
      }
      shapes_[info_.outputs[static_cast<size_t>(o)].name] = shape;
    }
    std::vector<std::pair<std::string, bool>> attrSpecs;  // (spec, from the task's case)
    for (const std::string& spec : options_.caseAttrs) attrSpecs.emplace_back(spec, true);
    for (const std::string& spec : options_.attrs) attrSpecs.emplace_back(spec, false);
    for (const auto& [spec, fromCase] : attrSpecs) {
      std::string name, value;
      // An empty value is a string attribute's "" or an empty list (GroupNormSwish's answer passes data_format "").
      if (!splitSpec(spec, name, value, true))
        return usage(fmt::format("error: --attr takes NAME=VALUE, got '{}'", spec));
      bool found = fromCase;
      for (size_t a = 0; a < info_.attrs.size(); ++a) {
        if (info_.attrs[a].name == name || name == "#" + std::to_string(a)) {
          found = true;
          const std::string& kind = info_.attrs[a].kind;
          bool list = kind.rfind("list_", 0) == 0;
          if (value.empty() && kind != "str" && !list)
            return usage(fmt::format("error: --attr {}: an empty value is not a {}", name, kind));
          std::string text = value;
          if (list) std::replace(text.begin(), text.end(), ',', ' ');
          if (kind == "bool") {
            // Python's spelling too: bindings and scripts print a bool as True.
            if (value == "true" || value == "True" || value == "1") text = "1";
            else if (value == "false" || value == "False" || value == "0") text = "0";
            else
              return usage(fmt::format("error: --attr {}: '{}' is not a bool; hint: pass true or false", name, value));
          }
          attrs_[a] = text;
        }
      }
      if (!found) {
        std::string all;
        for (const AttrInfo& a : info_.attrs) all += (all.empty() ? "" : ", ") + a.name;
        return usage(fmt::format("error: --attr {}: {} has no attribute '{}' (its attributes: {})", name, info_.type,
                                 name, all.empty() ? "none" : all));
      }
    }
    for (size_t a = 0; a < info_.attrs.size(); ++a) {
      if (!info_.attrs[a].hasDefault && !attrs_.count(a)) {
        return usage(fmt::format("error: attribute '{}' of {} has no default: pass --attr {}=VALUE",
                                 info_.attrs[a].name, info_.type, info_.attrs[a].name));
      }
    }
    return chooseColumn();
  }

  // msopgen's dtype lists are columns: the i-th entry of every input and output is one combination.
  int chooseColumn() {
    size_t columns = 0;
    for (const ParamInfo& p : info_.inputs) columns = std::max(columns, p.dtypes.size());
    for (size_t c = 0; c < columns; ++c) {
      bool fits = true;
      for (size_t i = 0; i < inputs_.size(); ++i) {
        const auto& types = info_.inputs[i].dtypes;
        int want = types.empty() ? -1 : types[std::min(c, types.size() - 1)];
        for (const OpTensor& t : inputs_[i]) fits = fits && t.geType() == want;
      }
      if (fits) {
        column_ = c;
        return 0;
      }
    }
    std::string given, accepted;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      for (size_t k = 0; k < inputs_[i].size(); ++k) {
        std::string name =
            info_.inputs[i].option == "dynamic" ? fmt::format("{}[{}]", info_.inputs[i].name, k) : info_.inputs[i].name;
        given += fmt::format("{}{} {}", given.empty() ? "" : ", ", name, inputs_[i][k].dtypeName());
      }
    }
    for (size_t c = 0; c < columns; ++c) {
      std::string combo;
      for (const ParamInfo& p : info_.inputs) {
        if (!p.dtypes.empty())
          combo += fmt::format("{}{} {}", combo.empty() ? "" : " ", p.name,
                               geType(p.dtypes[std::min(c, p.dtypes.size() - 1)]).name);
      }
      accepted += (accepted.empty() ? "" : "; ") + combo;
    }
    return usage(fmt::format("error: {} takes no inputs {} ({}: OpDef dtype combinations: {})", info_.type, given,
                             info_.location, accepted.empty() ? "none" : accepted));
  }

  int outputType(size_t o) const {
    const auto& types = info_.outputs[o].dtypes;
    return types.empty() ? -1 : types[std::min(column_, types.size() - 1)];
  }

  int runHost() {
    std::string caseText;
    fs::path dir = work_.root / "host";
    for (size_t i = 0; i < inputs_.size(); ++i) {
      // An optional input left out has no instance (CANN's contexts give nullptr for it, and the flat indexes of
      // the inputs after it shift); the kernel's argument for it is a null address (runKernel).
      if (inputs_[i].empty()) continue;
      for (size_t k = 0; k < inputs_[i].size(); ++k) {
        const OpTensor& t = inputs_[i][k];
        std::string file = fmt::format("in{}_{}.bin", i, k);
        if (!writeOrSay(dir / file, toBytes(t.data), err_)) return 1;
        caseText += fmt::format("input {} {} {} {}", i, *t.geType(), file, t.shape().size());
        for (int64_t d : t.shape()) caseText += fmt::format(" {}", d);
        caseText += '\n';
      }
    }
    countOutputs();
    for (size_t o = 0; o < info_.outputs.size(); ++o) {
      auto expect = expects_.find(info_.outputs[o].name);
      auto given = shapes_.find(info_.outputs[o].name);
      for (size_t k = 0; k < outputCounts_[o]; ++k) {
        // The reference's shape is the caller's (its dtype may differ: a golden computed in float32 for a half
        // output), unless one side is complex and the other not (a float32 [..., 2] of a complex64 output is not
        // its shape), or the kernel computes the output's shape and InferShape gives its bound (without one, the
        // reference's shape is the buffer, as before the kernel trims it).
        const bool complexOut = geType(outputType(o)).complex;
        bool fromReference = expect != expects_.end() && expect->second[k].complex64 == complexOut &&
                             !(info_.outputs[o].shapeDependsOnCompute && info_.inferShape);
        if (!fromReference && given == shapes_.end()) {
          caseText += fmt::format("output {} {} -1\n", o, outputType(o));
          continue;
        }
        std::vector<int64_t> shape = fromReference ? expect->second[k].shape() : given->second;
        caseText += fmt::format("output {} {} {}", o, outputType(o), shape.size());
        for (int64_t d : shape) caseText += fmt::format(" {}", d);
        caseText += '\n';
      }
    }
    for (const auto& [index, value] : attrs_) caseText += fmt::format("attr {} {}\n", index, value);
    if (!writeOrSay(dir / "case.txt", caseText, err_)) return 1;
    int status = 0;
    auto result = runHostProgram({"case", "case.txt", "host_result.txt"}, status);
    if (!result) return status;
    std::string error;
    auto host = parseHostResult(*result, &error);
    if (!host) {
      err_ << "error: " << error << '\n';
      return 1;
    }
    host_ = *host;
    for (const std::string& warning : host_.warnings) err_ << userPaths(warning, layout_) << '\n';
    size_t instances = 0;
    for (size_t n : outputCounts_) instances += n;
    if (host_.outputTypes.size() != instances) {
      err_ << fmt::format("error: the host program reported {} output tensors, {} expected\n", host_.outputTypes.size(),
                          instances);
      return 1;
    }
    uint64_t workspace = 0;
    for (uint64_t w : host_.workspaces) workspace += w;
    out_ << fmt::format("host: block dim {}, tiling key {}, tiling data {} bytes, workspace {} bytes\n", host_.blockDim,
                        host_.tilingKey, host_.tilingData.size(), workspace);
    for (size_t o = 0, k = 0; o < info_.outputs.size(); k += outputCounts_[o], ++o) {
      if (outputCounts_[o] == 0) continue;
      GeType type = geType(host_.outputTypes[k]);
      if (!type.dtype) {
        err_ << fmt::format("error: output '{}' of {} is {}, which .npy files here cannot hold\n",
                            info_.outputs[o].name, info_.type, type.name);
        return 1;
      }
      if (!info_.inferShape && expects_.find(info_.outputs[o].name) == expects_.end() &&
          shapes_.find(info_.outputs[o].name) == shapes_.end()) {
        return usage(
            fmt::format("error: {} registers no InferShape ({}): give output '{}' its shape with --expect "
                        "{}=FILE.npy",
                        info_.type, info_.location, info_.outputs[o].name, info_.outputs[o].name));
      }
    }
    return 0;
  }

  // How many tensors each output has: one, or for a tensor list the --expect list's length, else the length of the
  // first tensor-list input (a Foreach operator's rule).
  void countOutputs() {
    size_t listLength = 1;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (info_.inputs[i].option == "dynamic") {
        listLength = inputs_[i].size();
        break;
      }
    }
    outputCounts_.assign(info_.outputs.size(), 1);
    for (size_t o = 0; o < info_.outputs.size(); ++o) {
      auto expect = expects_.find(info_.outputs[o].name);
      if (info_.outputs[o].option == "dynamic") {
        outputCounts_[o] = expect != expects_.end() ? expect->second.size() : listLength;
      }
    }
  }

  int runKernel() {
    fs::path dir = work_.root / "kernel";
    fs::create_directories(dir);
    if (kernelTilingClass(info_).empty() && !info_.registrations.empty()) {
      err_ << fmt::format(
          "error: {} registers tiling classes for other operators only; hint: "
          "REGISTER_TILING_DATA_CLASS({}, <its TilingData class>)\n",
          info_.type, info_.type);
      return 1;
    }
    std::optional<std::string> kernelText = support::readFile(layout_.kernelSource);
    size_t tensors = info_.inputs.size() + info_.outputs.size() + (shapeOutputs() ? 1 : 0);
    std::string kernelInclude = fs::path(layout_.kernelSource).filename().string();
    std::string deviceText = withoutLaunchConfigs(kernelText.value_or(""));
    if (kernelText && deviceText != *kernelText) {
      // The copy g++ compiles keeps the file's own name and lines for diagnostics and the checks' locations.
      kernelInclude = "tc_device_kernel.cpp";
      if (!writeOrSay(dir / kernelInclude, fmt::format("#line 1 \"{}\"\n{}", layout_.kernelSource, deviceText), err_))
        return 1;
    }
    if (!writeOrSay(dir / "tc_kernel_tiling.h", kernelTilingHeader(info_), err_) ||
        !writeOrSay(dir / "kernel_main.cpp",
                    kernelDriverSource(kernelInclude, entry_, tensors, autoSync(), options_.faults == "warn"), err_)) {
      return 1;
    }
    runner::BuildRequest request;
    request.source = (dir / "kernel_main.cpp").string();
    request.includeDirs = {(fs::path(layout_.absDir) / "op_kernel").string()};
    addIncludes(request);
    request.warnings = false;
    // The device build: no CPU-debug `__CCE_KT_TEST__` (emu/base.h), so code only the device runs is built.
    request.defines.push_back("TILECRAFT_DEVICE_BUILD");
    for (size_t i = 0; i < info_.inputs.size(); ++i) {
      int t = !inputs_[i].empty() ? *inputs_[i][0].geType()
                                  : (info_.inputs[i].dtypes.empty() ? 0 : info_.inputs[i].dtypes[0]);
      addTypeDefines(request, info_.inputs[i].name, t);
    }
    for (size_t o = 0, k = 0; o < info_.outputs.size(); k += outputCounts_[o], ++o) {
      // CANN's build names an output that shares an input's name NAME_REF (the input's own defines stay).
      std::string name = info_.outputs[o].name + (refInput(o) ? "_ref" : "");
      addTypeDefines(request, name, outputCounts_[o] ? host_.outputTypes[k] : outputType(o));
    }
    runner::BuildResult built = service_.build(request);
    outcome_.seconds += built.seconds;
    if (!built.ok) {
      outcome_.diagnostics = userPaths(built.diagnostics, layout_);
      err_ << outcome_.diagnostics;
      err_ << fmt::format("error: {} does not build against the emulator\n", userPaths(layout_.kernelSource, layout_));
      return 1;
    }
    fs::path runDir = work_.root / "run";
    fs::create_directories(runDir);
    if (!writeOrSay(runDir / "tiling.bin", host_.tilingData, err_)) return 1;
    uint64_t workspace = 0;
    for (uint64_t w : host_.workspaces) workspace += w;
    runner::RunRequest run;
    run.program = built.program;
    run.workDir = runDir.string();
    run.limits = runLimits(options_.timeoutSeconds);
    run.trace = options_.trace;
    run.args = {kernelMode(kernelText.value_or("")), std::to_string(host_.blockDim), std::to_string(host_.tilingKey),
                "tiling.bin", std::to_string(workspace)};
    for (size_t i = 0; i < info_.inputs.size(); ++i) {
      bool list = info_.inputs[i].option == "dynamic";
      if (list) run.args.insert(run.args.end(), {"list", std::to_string(inputs_[i].size())});
      if (inputs_[i].empty()) addBuffer(run, Buffer{info_.inputs[i].name, 0, {0}, false}, "null", false);
      for (size_t k = 0; k < inputs_[i].size(); ++k) {
        const OpTensor& t = inputs_[i][k];
        std::string file = fmt::format("in{}_{}.bin", i, k);
        if (!writeOrSay(runDir / file, toBytes(t.data), err_)) return 1;
        addBuffer(run, Buffer{info_.inputs[i].name, *t.geType(), t.shape(), false, list ? static_cast<int>(k) : -1},
                  file, list);
      }
    }
    for (size_t o = 0, k = 0; o < info_.outputs.size(); ++o) {
      bool list = info_.outputs[o].option == "dynamic";
      if (list) run.args.insert(run.args.end(), {"list", std::to_string(outputCounts_[o])});
      std::optional<size_t> ref = refInput(o);
      bool shared = ref && (info_.inputs[*ref].option == "dynamic") == list && !inputs_[*ref].empty() &&
                    inputs_[*ref].size() == outputCounts_[o];
      for (size_t e = 0; e < outputCounts_[o]; ++e, ++k) {
        addBuffer(run,
                  Buffer{info_.outputs[o].name, host_.outputTypes[k], host_.outputShapes[k], true,
                         list ? static_cast<int>(e) : -1, o},
                  shared ? fmt::format("@{}.{}", *ref, e) : "-", list);
      }
    }
    if (size_t n = shapeOutputs()) {
      // CANN passes one more GM buffer after the outputs when some output's shape is computed by the kernel: 9
      // uint64 words per such output, in output order (the rank, then up to 8 dims).
      shapeBuffer_ = buffers_.size();
      addBuffer(run, Buffer{"shape_out", kShapeWordType, {static_cast<int64_t>(kShapeWords * n)}, false}, "-", false);
    }
    outcome_.stage = ProjectOutcome::Stage::KernelRun;
    runner::RunResult result = service_.run(run);
    outcome_.seconds += result.seconds;
    outcome_.run = result;
    if (!result.out.empty()) out_ << result.out << (result.out.back() == '\n' ? "" : "\n");
    for (const std::string& warning : result.warnings) err_ << userPaths(warning, layout_);
    if (result.status != runner::RunStatus::Passed) return reportRun("kernel", result, layout_, err_);
    if (result.warnings.empty()) {
      out_ << fmt::format("kernel: {} launched on {} block(s) ({}), all checks passed\n", entry_, host_.blockDim,
                          run.args[0]);
    } else {
      out_ << fmt::format(
          "kernel: {} launched on {} block(s) ({}), checks passed with {} fault(s) the device runs through, "
          "reported as warnings (--faults warn)\n",
          entry_, host_.blockDim, run.args[0], result.warnings.size());
    }
    return 0;
  }

  static void addTypeDefines(runner::BuildRequest& request, const std::string& name, int type) {
    std::string upper;
    for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    request.defines.push_back(fmt::format("DTYPE_{}={}", upper, geType(type).kernelType));
    request.defines.push_back(fmt::format("ORIG_DTYPE_{}={}", upper, geType(type).kernelCode));
    request.defines.push_back(fmt::format("FORMAT_{}=FORMAT_ND", upper));  // project run's tensors are all ND
  }

  // The input an output shares its name with (a ref output, as Eye's `y`): CANN binds both to one buffer.
  std::optional<size_t> refInput(size_t output) const {
    for (size_t i = 0; i < info_.inputs.size(); ++i)
      if (info_.inputs[i].name == info_.outputs[output].name) return i;
    return std::nullopt;
  }

  // A tensor argument is `IN|- OUT BYTES`; a tensor-list element adds its shape (`RANK DIMS...`) for the list's
  // descriptor (emu/project_launch.h).
  void addBuffer(runner::RunRequest& run, const Buffer& b, const std::string& in, bool listElement) {
    int64_t elements = 1;
    for (int64_t d : b.shape) elements *= d;
    std::string outFile = fmt::format("out{}.bin", buffers_.size());
    run.args.insert(run.args.end(),
                    {in, outFile, std::to_string(elements * static_cast<int64_t>(elementBytes(geType(b.type))))});
    if (listElement) {
      run.args.push_back(std::to_string(b.shape.size()));
      for (int64_t d : b.shape) run.args.push_back(std::to_string(d));
    }
    buffers_.push_back(b);
  }

  size_t shapeOutputs() const {
    return static_cast<size_t>(std::count_if(info_.outputs.begin(), info_.outputs.end(),
                                             [](const ParamInfo& p) { return p.shapeDependsOnCompute; }));
  }

  // The shapes the kernel wrote for its OutputShapeDependOnCompute outputs, by OpDef output index; false after
  // reporting a shape that does not fit the buffer the host allocated.
  bool computedShapes(const fs::path& runDir, std::map<size_t, std::vector<int64_t>>& shapes) {
    if (!shapeBuffer_) return true;
    std::string bytes = support::readFile(runDir / fmt::format("out{}.bin", *shapeBuffer_)).value_or("");
    std::vector<uint64_t> words(bytes.size() / sizeof(uint64_t));
    if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * sizeof(uint64_t));
    for (size_t o = 0, j = 0; o < info_.outputs.size(); ++o) {
      if (!info_.outputs[o].shapeDependsOnCompute) continue;
      size_t at = kShapeWords * j++;
      uint64_t rank = at < words.size() ? words[at] & 0xffffffffu : 0;
      std::vector<int64_t> dims;
      for (uint64_t d = 1; d <= rank && d < kShapeWords && at + d < words.size(); ++d)
        dims.push_back(static_cast<int64_t>(words[at + d]));
      int64_t elements = 1, room = 1;
      for (int64_t d : dims) elements *= d;
      for (const Buffer& b : buffers_)
        if (b.isOutput && b.output == o)
          for (int64_t d : b.shape) room *= d;
      if (rank == 0 || rank >= kShapeWords || elements > room) {
        err_ << fmt::format(
            "error: the kernel wrote a shape of rank {} ({} elements) for output '{}', which depends on the compute; "
            "its buffer holds {} elements of rank at most 8; hint: write the rank, then the dims, into the shape "
            "argument after the outputs\n",
            rank, elements, info_.outputs[o].name, room);
        return false;
      }
      shapes[o] = dims;
    }
    return true;
  }

  int finish() {
    fs::path runDir = work_.root / "run";
    bool allMatch = true;
    if (!options_.outDir.empty()) fs::create_directories(options_.outDir);
    std::map<size_t, std::vector<int64_t>> computed;
    if (!computedShapes(runDir, computed)) return 1;
    for (size_t k = 0; k < buffers_.size(); ++k) {
      const Buffer& b = buffers_[k];
      bool wanted = b.isOutput || expects_.count(b.name);
      if (!wanted) continue;
      std::string bytes = support::readFile(runDir / fmt::format("out{}.bin", k)).value_or("");
      std::vector<int64_t> shape = b.shape;
      if (auto c = computed.find(b.output); b.isOutput && c != computed.end()) {
        shape = c->second;
        int64_t elements = 1;
        for (int64_t d : shape) elements *= d;
        bytes.resize(std::min(bytes.size(), static_cast<size_t>(elements) * elementBytes(geType(b.type))));
      }
      OpTensor got = fromGm(bytes, geType(b.type), shape);
      if (b.isOutput) outcome_.outputs.push_back({b.name, b.output, b.index, got.data, got.complex64});
      std::string line = fmt::format("  {}: {}", b.label(), got.text());
      if (!options_.outDir.empty()) {
        fs::path file = fs::path(options_.outDir) / b.fileName();
        if (!writeOrSay(file, interp::encodeNpy(got.data, got.complex64), err_)) return 1;
        line += " -> " + file.string();
      }
      auto expect = expects_.find(b.name);
      size_t element = b.index < 0 ? 0 : static_cast<size_t>(b.index);
      if (expect != expects_.end() && element >= expect->second.size()) {
        line += fmt::format(", MISMATCH: --expect {} gives {} tensors", b.name, expect->second.size());
        allMatch = false;
      } else if (expect != expects_.end()) {
        interp::CompareResult c = compareTensors(expect->second[element], got);
        line += c.pass ? fmt::format(", matches (max rel error {:.2g})", c.maxRelError)
                       : fmt::format(", MISMATCH: {}", c.message);
        allMatch = allMatch && c.pass;
      }
      out_ << line << '\n';
    }
    if (!expects_.empty()) out_ << (allMatch ? "PASS" : "FAIL") << ' ' << layout_.dir << '\n';
    return allMatch ? 0 : 1;
  }

  const ProjectOptions& options_;
  runner::BuildRunService& service_;
  std::ostream& out_;
  std::ostream& err_;
  ProjectOutcome& outcome_;
  ProjectLayout layout_;
  Work work_;
  std::string hostProgram_;
  OperatorInfo info_;
  std::string entry_;
  std::vector<std::vector<OpTensor>> inputs_;  // per input: its tensors (none when absent)
  std::map<std::string, std::vector<OpTensor>> expects_;
  std::map<std::string, std::vector<int64_t>> shapes_;  // --shape, by output name
  std::vector<size_t> outputCounts_;
  std::map<size_t, std::string> attrs_;
  size_t column_ = 0;
  HostResult host_;
  std::vector<Buffer> buffers_;
  std::optional<size_t> shapeBuffer_;  // the buffer of the kernel's shape argument, when it has one
};

}  // namespace

int runProject(const ProjectOptions& options, runner::BuildRunService& service, std::ostream& out, std::ostream& err,
               ProjectOutcome* outcome) {
  ProjectOutcome unused;
  return ProjectRun(options, service, out, err, outcome != nullptr ? *outcome : unused).run();
}

}  // namespace tilecraft::project
