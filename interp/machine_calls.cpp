#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "dsl/generic.h"
#include "dsl/lexer.h"
#include "dsl/parser.h"
#include "interp/machine.h"
#include "interp/numeric.h"

namespace tilecraft::interp {
namespace detail {

std::vector<int64_t> Machine::viewShape(const View& view) const {
  std::vector<int64_t> shape;
  for (const ViewDim& d : view.dims) {
    if (d.kind != ViewDim::Kind::Index) shape.push_back(d.extent);
  }
  if (shape.empty()) shape.push_back(1);
  return shape;
}

namespace {

// Walks the elements of a view in row-major order, calling f(element number, tensor offset or -1 when the
// element lies outside the tensor).
template <typename F>
void forEachViewElement(const View& view, const std::vector<int64_t>& tensorShape, F f) {
  std::vector<size_t> free;  // the view's dimensions that are not integer indices
  for (size_t d = 0; d < view.dims.size(); ++d) {
    if (view.dims[d].kind != ViewDim::Kind::Index) free.push_back(d);
  }
  std::vector<int64_t> idx(free.size(), 0);
  int64_t count = 1;
  for (size_t d : free) count *= view.dims[d].extent;
  for (int64_t e = 0; e < count; ++e) {
    int64_t offset = 0;
    bool inside = true;
    size_t k = 0;
    for (size_t d = 0; d < view.dims.size(); ++d) {
      const ViewDim& vd = view.dims[d];
      int64_t coord = vd.kind == ViewDim::Kind::Index    ? vd.offset
                      : vd.kind == ViewDim::Kind::Gather ? vd.rows[static_cast<size_t>(idx[k++])]
                                                         : vd.offset + idx[k++];
      if (coord < 0 || coord >= tensorShape[d]) inside = false;
      offset = offset * tensorShape[d] + coord;
    }
    f(e, inside ? offset : -1);
    for (size_t j = free.size(); j-- > 0;) {
      if (++idx[j] < view.dims[free[j]].extent) break;
      idx[j] = 0;
    }
  }
}

}  // namespace

// Reads past the tensor's end are filled with `pad` (language §7); the compiler's padded tails never show.
Tile Machine::load(NodeId, const View& view, double pad) {
  const HostTensor& t = tensors_[view.param];
  Tile r{t.dtype, viewShape(view), {}};
  r.data.resize(static_cast<size_t>(r.numel()));
  double padValue = roundTo(pad, t.dtype);
  forEachViewElement(view, shapes_[view.param], [&](int64_t e, int64_t offset) {
    r.data[static_cast<size_t>(e)] = offset < 0 ? padValue : t.data[static_cast<size_t>(offset)];
  });
  return r;
}

// Writes outside the tensor are dropped (a padded tail is never written back). An f32 accumulator stored to an
// f16/bf16 tensor is rounded on the way out, as Fixpipe does.
void Machine::store(NodeId id, const View& view, const Tile& value, bool accumulate) {
  HostTensor& t = tensors_[view.param];
  std::vector<int64_t> shape = viewShape(view);
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  if (count != value.numel()) {
    internalError(id, fmt::format("store of a {} tile into a view of {} of '{}'", shapeText(value.shape),
                                  shapeText(shape), kernel_.params[view.param].name));
  }
  forEachViewElement(view, shapes_[view.param], [&](int64_t e, int64_t offset) {
    if (offset < 0) return;
    double v = value.data[static_cast<size_t>(e)];
    double& out = t.data[static_cast<size_t>(offset)];
    out = roundTo(accumulate ? out + v : v, t.dtype);
  });
}

// gather(table, index): along the last axis, r[..., j] = table[..., index[..., j]].
Tile Machine::gather(NodeId id, const Tile& table, const Tile& index) {
  int64_t width = table.shape.back();
  int64_t cols = index.shape.back();
  Tile r{table.dtype, index.shape, std::vector<double>(index.data.size())};
  for (size_t e = 0; e < index.data.size(); ++e) {
    auto row = static_cast<int64_t>(e) / cols;
    auto col = static_cast<int64_t>(index.data[e]);
    if (col < 0 || col >= width) {
      fail(id,
           fmt::format("gather index {} (element {}) is out of range for the table's last axis (extent {})", col, e,
                       width),
           fmt::format("index values must be in [0, {})", width));
    }
    r.data[e] = table.data[static_cast<size_t>(row * width + col)];
  }
  return r;
}

Value Machine::evalCall(NodeId id) {
  Builtin builtin = *sema_.calls[id];
  std::vector<NodeId> args;
  std::map<std::string, NodeId> kw;
  for (NodeId a : ast_.callArgs(id)) {
    if (ast_.kind(a) == NodeKind::Keyword) kw[ast_.node(a).name] = ast_.child(a, 0);
    else args.push_back(a);
  }
  auto kwBool = [&](const char* name) {
    auto it = kw.find(name);
    if (it == kw.end()) return false;
    Value v = eval(it->second);
    return std::holds_alternative<BoolV>(v) && std::get<BoolV>(v).v;
  };
  auto tileArg = [&](size_t i) -> Tile {
    Value v = eval(args[i]);
    return tileOf(args[i], v);
  };
  // Tile operands of an elementwise builtin; numbers take the dtype of the first tile among them.
  auto operands = [&](size_t first) {
    std::vector<Value> values;
    for (size_t i = first; i < args.size(); ++i) values.push_back(eval(args[i]));
    DType dtype = DType::F32;
    for (const Value& v : values) {
      if (auto* t = std::get_if<Tile>(&v)) {
        dtype = t->dtype;
        break;
      }
    }
    std::vector<Tile> tiles;
    for (size_t i = 0; i < values.size(); ++i) tiles.push_back(asTile(args[first + i], values[i], dtype));
    return tiles;
  };
  auto axisOf = [&](const Tile& x) {
    int64_t axis = -1;
    if (auto it = kw.find("axis"); it != kw.end()) axis = typeOf(it->second).constInt.value_or(-1);
    auto rank = static_cast<int64_t>(x.shape.size());
    return static_cast<size_t>(axis < 0 ? axis + rank : axis);
  };
  switch (builtin) {
    case Builtin::Split: {
      int64_t extent = asInt(args[0], eval(args[0]));
      // Balanced contiguous shares: the first extent % cores cores get one element more.
      int64_t base = extent / coreCount_, rem = extent % coreCount_;
      return RangeVal{core_ * base + std::min(core_, rem), base + (core_ < rem ? 1 : 0)};
    }
    case Builtin::Cdiv:
    case Builtin::Min:
    case Builtin::Max: {
      int64_t a = asInt(args[0], eval(args[0]));
      int64_t b = asInt(args[1], eval(args[1]));
      if (builtin == Builtin::Cdiv) {
        if (b <= 0) fail(args[1], fmt::format("cdiv() divisor is {}; it must be positive", b));
        return IntV{(a + b - 1) / b};
      }
      return IntV{builtin == Builtin::Min ? std::min(a, b) : std::max(a, b)};
    }
    case Builtin::Load: {
      Value v = eval(args[0]);
      double pad = 0;
      if (auto it = kw.find("pad"); it != kw.end()) pad = asNumber(it->second, eval(it->second));
      return load(id, std::get<View>(v), pad);
    }
    case Builtin::Store: {
      Value view = eval(args[0]);
      Tile value = tileArg(1);
      store(id, std::get<View>(view), value, kwBool("accumulate"));
      return NoValue{};
    }
    case Builtin::Copy: {
      Tile x = tileArg(0);
      return kwBool("transpose") ? transpose2d(x) : x;
    }
    case Builtin::Zeros: return makeTile(dtypeArg(args[1]), shapeOf(args[0]), 0.0);
    case Builtin::Full: return makeTile(dtypeArg(args[2]), shapeOf(args[0]), asNumber(args[1], eval(args[1])));
    case Builtin::Cast: return castTile(tileArg(0), dtypeArg(args[1]));
    case Builtin::Exp:
    case Builtin::Log:
    case Builtin::Abs:
    case Builtin::Sqrt:
    case Builtin::Rsqrt:
    case Builtin::Reciprocal:
    case Builtin::Relu:
    case Builtin::Tanh:
    case Builtin::Sigmoid:
    case Builtin::Gelu:
    case Builtin::Silu:
    case Builtin::Sin:
    case Builtin::Cos:
    case Builtin::Erf: {
      Tile x = tileArg(0);
      return mapTiles({&x}, x.dtype, [builtin](const double* v) { return unaryMath(builtin, v[0]); });
    }
    case Builtin::Maximum:
    case Builtin::Minimum: {
      std::vector<Tile> t = operands(0);
      bool max = builtin == Builtin::Maximum;
      return mapTiles({&t[0], &t[1]}, t[0].shape.empty() ? t[1].dtype : t[0].dtype,
                      [max](const double* v) { return max ? std::max(v[0], v[1]) : std::min(v[0], v[1]); });
    }
    case Builtin::Pow: {
      std::vector<Tile> t = operands(0);
      return arith('^', t[0], t[1]);
    }
    case Builtin::LeakyRelu: {
      std::vector<Tile> t = operands(0);
      return mapTiles({&t[0], &t[1]}, t[0].dtype, [](const double* v) { return v[0] >= 0 ? v[0] : v[0] * v[1]; });
    }
    case Builtin::Clamp: {
      std::vector<Tile> t = operands(0);
      return mapTiles({&t[0], &t[1], &t[2]}, t[0].dtype,
                      [](const double* v) { return std::min(std::max(v[0], v[1]), v[2]); });
    }
    case Builtin::Where: {
      Tile mask = tileArg(0);
      std::vector<Tile> t = operands(1);
      DType dtype = t[0].shape.empty() ? t[1].dtype : t[0].dtype;
      return mapTiles({&mask, &t[0], &t[1]}, dtype, [](const double* v) { return v[0] != 0 ? v[1] : v[2]; });
    }
    case Builtin::ReduceSum:
    case Builtin::ReduceMax:
    case Builtin::ReduceMin:
    case Builtin::ReduceMean:
    case Builtin::Argmax:
    case Builtin::Argmin: {
      Tile x = tileArg(0);
      return reduce(builtin, x, axisOf(x));
    }
    case Builtin::Cumsum:
    case Builtin::Cumprod: {
      Tile x = tileArg(0);
      return scan(builtin, x, axisOf(x));
    }
    case Builtin::Gather: {
      Tile table = tileArg(0);
      Tile index = tileArg(1);
      return gather(id, table, index);
    }
    case Builtin::Matmul: {
      Value a = eval(args[0]);
      Value b = eval(args[1]);
      return evalBinary(id, OpKind::MatMul, a, b);
    }
    case Builtin::VectorCores:
    case Builtin::CubeCores:
    case Builtin::Dim:
    case Builtin::Tiles:
    case Builtin::Grid:
    case Builtin::Range: return NoValue{};  // read by the constructs that take them
  }
  return NoValue{};
}

}  // namespace detail

// ------------------------------------------------------------------------------------------------------------
// The public interface
// ------------------------------------------------------------------------------------------------------------

std::string CheckedProgram::renderDiagnostics() const {
  return support::renderText(sources, diagnostics.diagnostics());
}

std::vector<std::string> CheckedProgram::dims() const {
  std::vector<std::string> out;
  for (dsl::NodeId item : ast.items(ast.root())) {
    if (ast.kind(item) == dsl::NodeKind::ConstDef && sema.calls[ast.child(item, 0)] == dsl::Builtin::Dim) {
      out.push_back(ast.node(item).name);
    }
  }
  return out;
}

const dsl::KernelInfo* CheckedProgram::kernel(const std::string& name) const {
  if (name.empty()) return sema.kernels.size() == 1 ? &sema.kernels[0] : nullptr;
  for (const dsl::KernelInfo& k : sema.kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::unique_ptr<CheckedProgram> checkProgram(const std::string& name, const std::string& text,
                                             const std::vector<std::string>& params) {
  auto program = std::make_unique<CheckedProgram>();
  support::FileId file = program->sources.addBuffer(name, text);
  std::vector<dsl::Token> tokens = dsl::lex(program->sources, file, program->diagnostics);
  program->ast = dsl::parse(tokens, program->diagnostics);
  if (!program->diagnostics.hasErrors()) {
    program->ast = dsl::instantiateOne(program->ast, params, program->diagnostics, &program->usageError);
  }
  if (program->ok()) program->sema = dsl::check(program->sources, program->ast, program->diagnostics);
  return program;
}

std::optional<std::vector<int64_t>> paramShape(const CheckedProgram&, const dsl::ParamInfo& param,
                                               const std::map<std::string, int64_t>& dims) {
  std::vector<int64_t> shape;
  for (const dsl::Dim& d : param.type.shape) {
    if (d.kind == dsl::Dim::Kind::Const) {
      shape.push_back(d.value);
      continue;
    }
    auto it = dims.find(d.name);
    if (it == dims.end()) return std::nullopt;
    shape.push_back(it->second);
  }
  return shape;
}

std::optional<RunOutputs> run(const CheckedProgram& program, const std::string& kernel, const RunRequest& request,
                              support::DiagnosticEngine& diagnostics) {
  const dsl::KernelInfo* info = program.kernel(kernel);
  if (!info) {
    std::vector<std::string> names;
    for (const dsl::KernelInfo& k : program.sema.kernels) names.push_back(k.name);
    diagnostics.error(program.ast.span(program.ast.root()),
                      kernel.empty()
                          ? fmt::format("the file has {} kernels; name one ({})", names.size(), fmt::join(names, ", "))
                          : fmt::format("no kernel named '{}' (the file has: {})", kernel, fmt::join(names, ", ")));
    return std::nullopt;
  }
  detail::Machine machine(program, *info, request);
  try {
    return machine.run();
  } catch (const detail::RunError& e) {
    auto d = diagnostics.error(program.ast.span(e.at), e.message);
    if (!e.hint.empty()) d.hint(e.hint);
    return std::nullopt;
  }
}

}  // namespace tilecraft::interp
