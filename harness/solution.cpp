#include "harness/solution.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "dsl/driver.h"
#include "support/assert.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;

// The front end on one .tile file: each instantiation's kernel parameters (`params` bind some parameters; the
// others range over their choices), then, when some instantiation does not compile, the diagnostics as the user
// would see them.
std::vector<DslKernel> readKernels(const fs::path& file, const std::vector<std::string>& params = {}) {
  std::vector<DslKernel> out;
  std::ostringstream diagnostics;
  bool oneKernelEach = true;
  dsl::FrontEndOptions frontEnd{file.string(), "text", false, params, true};
  int status = dsl::compileFile(
      frontEnd,
      [&](dsl::Program& program) -> std::vector<std::string> {
        if (program.sema.kernels.size() != 1) {
          oneKernelEach = false;
          return {};  // reported below: one file, one kernel
        }
        DslKernel k;
        k.file = file;
        k.instantiation = program.instantiation.str();
        k.bindings = program.instantiation.flags();
        for (const auto& [name, value] : program.instantiation.values) {
          for (const dsl::GenericParam& g : program.params) {
            if (g.name == name && !g.isDType) k.consts[name] = std::stoll(value);
          }
        }
        const dsl::KernelInfo& info = program.sema.kernels.front();
        k.name = info.name;
        for (const dsl::ParamInfo& p : info.params) {
          KernelParam param;
          param.name = p.name;
          param.isTensor = p.isTensor;
          param.dtype = p.type.dtype;
          param.stored = p.stored;
          for (const dsl::Dim& d : p.type.shape) {
            KernelParam::Extent e;
            if (d.kind == dsl::Dim::Kind::Sym) {
              e.dim = d.name;
            } else {
              e.value = d.value;
            }
            param.shape.push_back(e);
          }
          k.params.push_back(std::move(param));
        }
        out.push_back(std::move(k));
        return {};
      },
      diagnostics);
  if (!oneKernelEach) {
    out.clear();
    DslKernel k;
    k.file = file;
    k.error = fmt::format("{}: a solution file must hold exactly one @kernel", file.filename().string());
    k.failure = Failure::Syntax;
    out.push_back(std::move(k));
  } else if (status != 0) {
    DslKernel k;
    k.file = file;
    k.error = diagnostics.str();
    k.failure = Failure::Syntax;
    out.push_back(std::move(k));
  }
  return out;
}

Binding readBinding(const fs::path& file, std::string* error) {
  Binding b;
  try {
    YAML::Node root = YAML::LoadFile(file.string());
    for (const char* section : {"dims", "attrs"}) {
      YAML::Node node = root[section];
      if (!node) continue;
      if (!node.IsMap()) {
        throw std::runtime_error(
            fmt::format("line {}: '{}' must map names to expressions", node.Mark().line + 1, section));
      }
      auto& target = std::string(section) == "dims" ? b.dims : b.attrs;
      for (const auto& kv : node) target[kv.first.as<std::string>()] = kv.second.as<std::string>();
    }
    for (const auto& kv : root) {
      std::string key = kv.first.as<std::string>();
      if (key != "dims" && key != "attrs") {
        throw std::runtime_error(
            fmt::format("line {}: unknown key '{}' (expected dims, attrs)", kv.first.Mark().line + 1, key));
      }
    }
  } catch (const std::exception& e) {
    *error = fmt::format("{}: {}", file.string(), e.what());
  }
  return b;
}

Solution readSolution(const fs::path& dir, int sample) {
  Solution s;
  s.dir = dir;
  s.sample = sample;
  std::vector<fs::path> tiles, snippets;
  bool project = fs::is_directory(dir / "op_kernel") || fs::is_directory(dir / "op_host");
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    if (entry.path().extension() == ".tile") tiles.push_back(entry.path());
    // A MultiKernelBench AscendC submission: the Python snippet of six source strings.
    if (entry.path().extension() == ".py") snippets.push_back(entry.path());
  }
  std::sort(tiles.begin(), tiles.end());
  std::sort(snippets.begin(), snippets.end());
  if (!tiles.empty()) {
    s.kind = "dsl";
    for (const fs::path& t : tiles) {
      for (DslKernel& k : readKernels(t)) s.kernels.push_back(std::move(k));
    }
    if (fs::exists(dir / "binding.yaml")) s.binding = readBinding(dir / "binding.yaml", &s.error);
  } else if (project) {
    s.kind = "ascendc";
  } else if (!snippets.empty()) {
    s.kind = "ascendc";
    s.snippet = snippets.front();
    if (snippets.size() > 1) {
      s.error = fmt::format("{} MultiKernelBench submissions ({}, {}, ...); a solution has one", snippets.size(),
                            snippets[0].filename().string(), snippets[1].filename().string());
    }
  } else {
    s.kind = "none";
  }
  return s;
}

bool isNumber(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c); });
}

// Shapes of the case's tensors by name, for binding expressions and the default rule.
using ShapeMap = std::map<std::string, std::vector<int64_t>>;

int64_t product(const std::vector<int64_t>& shape, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < shape.size(); ++i) p *= shape[i];
  return p;
}

// Evaluates a binding expression: a product of terms, each an integer, numel(T), T.shape[i] or
// prod(T.shape[a:b]) (Python slice bounds, negative from the end).
class Expression {
 public:
  Expression(const std::string& text, const ShapeMap& shapes) : text_(text), shapes_(shapes) {}

  int64_t evaluate() {
    int64_t v = term();
    while (skip('*')) v *= term();
    space();
    if (pos_ != text_.size()) fail("unexpected text");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error(fmt::format("in '{}' at column {}: {}", text_, pos_ + 1, what));
  }
  void space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool skip(char c) {
    space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!skip(c)) fail(fmt::format("expected '{}'", c));
  }
  std::string word() {
    space();
    size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    if (start == pos_) fail("expected a name or a number");
    return text_.substr(start, pos_ - start);
  }
  int64_t integer() {
    bool negative = skip('-');
    std::string w = word();
    if (!isNumber(w)) fail(fmt::format("'{}' is not an integer", w));
    int64_t v = std::stoll(w);
    return negative ? -v : v;
  }
  const std::vector<int64_t>& tensor(const std::string& name) {
    auto it = shapes_.find(name);
    if (it == shapes_.end()) fail(fmt::format("'{}' is not a tensor of the task", name));
    return it->second;
  }
  size_t index(int64_t i, size_t rank) {
    int64_t r = static_cast<int64_t>(rank);
    if (i < 0) i += r;
    if (i < 0 || i >= r) fail(fmt::format("index out of range for rank {}", rank));
    return static_cast<size_t>(i);
  }
  size_t bound(int64_t i, size_t rank) {
    int64_t r = static_cast<int64_t>(rank);
    if (i < 0) i += r;
    return static_cast<size_t>(std::clamp<int64_t>(i, 0, r));
  }
  // T.shape[i] or T.shape[a:b] after the name; returns the dim or the slice's product.
  int64_t shapeAccess(const std::vector<int64_t>& shape, bool sliceAllowed) {
    expect('.');
    if (word() != "shape") fail("expected '.shape'");
    expect('[');
    space();
    int64_t first = 0, last = static_cast<int64_t>(shape.size());
    bool slice = false;
    if (!skip(':')) {
      first = integer();
      slice = skip(':');
    } else {
      slice = true;
    }
    if (slice) {
      if (!sliceAllowed) fail("a slice needs prod(...)");
      space();
      if (pos_ < text_.size() && text_[pos_] != ']') last = integer();
      expect(']');
      return product(shape, bound(first, shape.size()), bound(last, shape.size()));
    }
    expect(']');
    return shape[index(first, shape.size())];
  }
  int64_t term() {
    space();
    if (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '-')) {
      return integer();
    }
    std::string w = word();
    if (w == "numel" || w == "prod") {
      expect('(');
      std::string name = word();
      const std::vector<int64_t>& shape = tensor(name);
      int64_t v = w == "numel" ? product(shape, 0, shape.size()) : shapeAccess(shape, true);
      expect(')');
      return v;
    }
    return shapeAccess(tensor(w), false);
  }

  const std::string& text_;
  const ShapeMap& shapes_;
  size_t pos_ = 0;
};

// The default view of a case tensor of shape `s` as a kernel tensor of rank `rank`: leading dims are folded into
// the first (rows of a row-wise kernel, one flat extent for a 1-D one) and missing leading dims are 1.
std::vector<int64_t> defaultView(const std::vector<int64_t>& s, size_t rank) {
  if (rank == 0) return {};
  if (s.size() < rank) {
    std::vector<int64_t> v(rank - s.size(), 1);
    v.insert(v.end(), s.begin(), s.end());
    return v;
  }
  size_t fold = s.size() - rank + 1;
  std::vector<int64_t> v = {product(s, 0, fold)};
  v.insert(v.end(), s.begin() + static_cast<std::ptrdiff_t>(fold), s.end());
  return v;
}

std::string dtypeList(const std::vector<dsl::DType>& types) {
  std::vector<std::string> names;
  for (dsl::DType t : types) names.push_back(dsl::dtypeName(t));
  return fmt::format("({})", fmt::join(names, ", "));
}

// The kernel's dtypes for the task's inputs and outputs, in proto order (absent ones skipped).
bool dtypesMatch(const DslKernel& k, const Task& task, const Case& c, const std::vector<dsl::DType>& outTypes,
                 std::vector<dsl::DType>* kernelTypes) {
  bool match = true;
  auto check = [&](const std::string& name, dsl::DType want) {
    for (const KernelParam& p : k.params) {
      if (p.isTensor && p.name == name) {
        kernelTypes->push_back(p.dtype);
        match = match && p.dtype == want;
        return;
      }
    }
  };
  for (size_t i = 0; i < task.inputs.size() && i < c.inputs.size(); ++i) {
    if (c.inputs[i].present && !c.inputs[i].isList) check(task.inputs[i].name, c.inputs[i].dtype);
  }
  for (size_t i = 0; i < task.outputs.size() && i < outTypes.size(); ++i) check(task.outputs[i].name, outTypes[i]);
  return match;
}

CaseBinding failed(Failure f, std::string message) {
  CaseBinding b;
  b.failure = f;
  b.message = std::move(message);
  return b;
}

}  // namespace

std::vector<Solution> findSolutions(const fs::path& root, const std::string& task) {
  fs::path dir = root / task;
  if (!fs::is_directory(dir)) {
    Solution none;
    none.kind = "none";
    none.dir = dir;
    return {none};
  }
  std::vector<int> samples;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (entry.is_directory() && isNumber(name) && name.size() < 6) samples.push_back(std::stoi(name));
  }
  std::sort(samples.begin(), samples.end());
  if (samples.empty()) return {readSolution(dir, 0)};
  std::vector<Solution> out;
  for (int s : samples) out.push_back(readSolution(dir / std::to_string(s), s));
  return out;
}

CaseBinding bindCase(const Solution& solution, const Task& task, const Case& c,
                     const std::vector<std::vector<int64_t>>& inputShapes,
                     const std::vector<std::vector<int64_t>>& outputShapes) {
  if (solution.kind == "none")
    return failed(Failure::NoSolution, fmt::format("no solution in {}", solution.dir.string()));
  // A custom-op project is judged by harness/project_solution.h, never bound here.
  TC_ASSERT(solution.kind == "dsl", "bindCase on a solution of kind '{}'", solution.kind);
  if (!solution.error.empty()) return failed(Failure::Syntax, solution.error);
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (c.inputs[i].present && c.inputs[i].isList) {
      return failed(Failure::NotEvaluable, fmt::format("input '{}' is a tensor list, which a Tile DSL kernel cannot "
                                                       "take",
                                                       i < task.inputs.size() ? task.inputs[i].name : "?"));
    }
  }

  // The kernel whose tensor dtypes are the case's.
  std::vector<dsl::DType> outTypes = task.outputDtypes(c);
  std::vector<dsl::DType> caseTypes;
  for (const CaseTensor& t : c.inputs) {
    if (t.present) caseTypes.push_back(t.dtype);
  }
  caseTypes.insert(caseTypes.end(), outTypes.begin(), outTypes.end());
  const DslKernel* kernel = nullptr;
  std::vector<std::string> offered;
  for (const DslKernel& k : solution.kernels) {
    if (!k.error.empty()) continue;
    std::vector<dsl::DType> kernelTypes;
    if (dtypesMatch(k, task, c, outTypes, &kernelTypes)) {
      kernel = &k;
      break;
    }
    std::string which = k.instantiation.empty() ? "" : fmt::format(" ({})", k.instantiation);
    offered.push_back(fmt::format("{}{} takes {}", k.file.filename().string(), which, dtypeList(kernelTypes)));
  }
  if (kernel == nullptr) {
    for (const DslKernel& k : solution.kernels) {
      if (!k.error.empty()) return failed(k.failure, k.error);
    }
    return failed(Failure::Dtype, fmt::format("no kernel of the solution takes the case's dtypes {}: {}",
                                              dtypeList(caseTypes), fmt::join(offered, "; ")));
  }

  ShapeMap shapes;
  for (size_t i = 0; i < task.inputs.size() && i < inputShapes.size(); ++i)
    shapes[task.inputs[i].name] = inputShapes[i];
  for (size_t i = 0; i < task.outputs.size() && i < outputShapes.size(); ++i) {
    shapes[task.outputs[i].name] = outputShapes[i];
  }

  CaseBinding b;
  b.kernel = kernel;
  nlohmann::json attrs = nlohmann::json::parse(c.attrsJson, nullptr, false);
  auto caseAttr = [&](const std::string& name) -> const nlohmann::json* {
    auto renamed = solution.binding.attrs.find(name);
    std::string caseName = renamed != solution.binding.attrs.end() ? renamed->second : name;
    if (!attrs.is_object() || !attrs.contains(caseName) || attrs[caseName].is_null()) return nullptr;
    return &attrs[caseName];
  };
  // A const parameter takes the case's attribute of its name: another value than the one the file was read
  // with is another instantiation.
  std::vector<std::string> rebound = kernel->bindings;
  bool rebind = false;
  for (std::string& flag : rebound) {
    std::string name = flag.substr(0, flag.find('='));
    auto bound = kernel->consts.find(name);
    const nlohmann::json* v = bound == kernel->consts.end() ? nullptr : caseAttr(name);
    if (v == nullptr) continue;
    if (!v->is_number_integer()) {
      return failed(Failure::Signature, fmt::format("const parameter '{}' of {} takes the case's attribute, which "
                                                    "is {} (not an integer)",
                                                    name, kernel->file.filename().string(), v->dump()));
    }
    if (v->get<int64_t>() == bound->second) continue;
    flag = fmt::format("{}={}", name, v->get<int64_t>());
    rebind = true;
  }
  if (rebind) {
    std::vector<DslKernel> again = readKernels(kernel->file, rebound);
    if (again.size() != 1 || !again[0].error.empty()) {
      const DslKernel& bad = again.back();
      return failed(bad.failure == Failure::None ? Failure::Syntax : bad.failure, bad.error);
    }
    b.instantiated = std::make_shared<DslKernel>(std::move(again[0]));
    b.kernel = kernel = b.instantiated.get();
  }
  std::map<std::string, int64_t> dims;
  std::map<std::string, std::string> dimSource;
  try {
    for (const auto& [dim, expr] : solution.binding.dims) {
      dims[dim] = Expression(expr, shapes).evaluate();
      dimSource[dim] = fmt::format("binding.yaml ({})", expr);
    }
  } catch (const std::exception& e) {
    return failed(Failure::Syntax, fmt::format("binding.yaml: {}", e.what()));
  }
  for (const KernelParam& p : kernel->params) {
    if (p.isTensor) continue;
    if (const nlohmann::json* found = caseAttr(p.name)) {
      const nlohmann::json& v = *found;
      std::string text = v.is_boolean() ? (v.get<bool>() ? "1" : "0") : v.dump();
      b.args.push_back(fmt::format("{}={}", p.name, text));
    }
  }
  // Does `view` fit what is known of the kernel's dims? Sets `why` when it does not.
  auto fits = [&](const KernelParam& p, const std::vector<int64_t>& view, std::string* why) {
    for (size_t d = 0; d < p.shape.size(); ++d) {
      const KernelParam::Extent& e = p.shape[d];
      if (e.dim.empty()) {
        if (view[d] != e.value && solution.binding.dims.empty()) {
          *why =
              fmt::format("dimension {} of '{}' is {} in the kernel but {} in the case", d, p.name, e.value, view[d]);
          return false;
        }
        continue;
      }
      auto known = dims.find(e.dim);
      if (known != dims.end() && known->second != view[d] && !solution.binding.dims.count(e.dim)) {
        *why = fmt::format("dim {} is {} from {} but {} from '{}' dimension {}", e.dim, known->second, dimSource[e.dim],
                           view[d], p.name, d);
        return false;
      }
    }
    return true;
  };
  // Tensors of at least the kernel's rank bind dims unambiguously; lower-rank ones (a (N,) gamma for a (1, N)
  // parameter, an (M,) row statistic for an (M, 1) one) then take the padding that agrees with them.
  std::vector<const KernelParam*> order;
  for (int pass = 0; pass < 2; ++pass) {
    for (const KernelParam& p : kernel->params) {
      auto shape = shapes.find(p.name);
      if (!p.isTensor || shape == shapes.end()) continue;
      if ((shape->second.size() >= p.shape.size()) == (pass == 0)) order.push_back(&p);
    }
  }
  for (const KernelParam& p : kernel->params) {
    if (p.isTensor && !shapes.count(p.name)) {
      return failed(Failure::Signature, fmt::format("kernel parameter '{}' of {} is not an input or output of task "
                                                    "{} (those are named in proto.yaml)",
                                                    p.name, kernel->file.filename().string(), task.name));
    }
  }
  for (const TensorDecl& out : task.outputs) {
    bool taken = std::any_of(kernel->params.begin(), kernel->params.end(),
                             [&](const KernelParam& p) { return p.isTensor && p.name == out.name; });
    if (!taken) {
      return failed(Failure::Signature, fmt::format("{} has no parameter for output '{}' of task {}",
                                                    kernel->file.filename().string(), out.name, task.name));
    }
  }
  for (const KernelParam* pp : order) {
    const KernelParam& p = *pp;
    const std::vector<int64_t>& caseShape = shapes.at(p.name);
    std::vector<std::vector<int64_t>> candidates = {defaultView(caseShape, p.shape.size())};
    if (caseShape.size() < p.shape.size()) {
      std::vector<int64_t> trailing = caseShape;
      trailing.resize(p.shape.size(), 1);
      candidates.push_back(trailing);
    }
    std::string why;
    const std::vector<int64_t>* view = nullptr;
    for (const std::vector<int64_t>& c : candidates) {
      std::string reason;
      if (fits(p, c, &reason)) {
        view = &c;
        break;
      }
      if (why.empty()) why = reason;
    }
    if (view == nullptr) {
      return failed(Failure::Signature, fmt::format("{}: {} (case shape [{}]); add a binding.yaml",
                                                    kernel->file.filename().string(), why, fmt::join(caseShape, ", ")));
    }
    std::vector<int64_t> bound = *view;
    for (size_t d = 0; d < p.shape.size(); ++d) {
      const KernelParam::Extent& e = p.shape[d];
      if (e.dim.empty()) {
        bound[d] = e.value;
      } else if (dims.count(e.dim)) {
        bound[d] = dims[e.dim];
      } else {
        dims[e.dim] = bound[d];
        dimSource[e.dim] = fmt::format("'{}' dimension {}", p.name, d);
      }
    }
    int64_t viewNumel = product(bound, 0, bound.size());
    int64_t caseNumel = product(caseShape, 0, caseShape.size());
    if (viewNumel != caseNumel) {
      return failed(
          Failure::Signature,
          fmt::format("{}: '{}' has {} elements in the case but the kernel sees [{}] = {}",
                      kernel->file.filename().string(), p.name, caseNumel, fmt::join(bound, ", "), viewNumel));
    }
    b.views[p.name] = bound;
  }
  for (const auto& [dim, value] : dims) b.args.push_back(fmt::format("{}={}", dim, value));
  std::sort(b.args.begin(), b.args.end());
  b.ok = true;
  return b;
}

}  // namespace tilecraft::harness
