// Private to the interpreter: the values a program computes and the machine that evaluates one kernel.
// machine.cpp: setup, statements and expressions; machine_calls.cpp: builtin calls, load and store.
#pragma once

#include <fmt/format.h>

#include <map>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "interp/interp.h"
#include "interp/tile_ops.h"

namespace tilecraft::interp::detail {

using dsl::Builtin;
using dsl::DType;
using dsl::NodeId;
using dsl::NodeKind;
using dsl::OpKind;

struct IntV {
  int64_t v;
};
struct FloatV {
  double v;
};
struct BoolV {
  bool v;
};
struct NoValue {};
/// A tile loop variable: where the tile begins, how many elements are valid, the constant tile size.
struct TileVar {
  int64_t start;
  int64_t len;
  int64_t size;
};
/// This core's share of an extent, from split().
struct RangeVal {
  int64_t start;
  int64_t len;
};
/// One dimension of a view of a GM tensor.
struct ViewDim {
  enum class Kind { Span, Index, Gather } kind = Kind::Span;
  int64_t offset = 0;         // Span: first element; Index: the index
  int64_t extent = 0;         // Span: element count
  std::vector<int64_t> rows;  // Gather: one row index per element
};
struct View {
  size_t param = 0;  // index into the kernel's params
  std::vector<ViewDim> dims;
};
using Value = std::variant<NoValue, IntV, FloatV, BoolV, TileVar, RangeVal, View, Tile>;

/// A run-time error at a source location; run() turns it into a diagnostic.
struct RunError {
  NodeId at;
  std::string message;
  std::string hint;
};

std::string shapeText(const std::vector<int64_t>& shape);

class Machine {
 public:
  Machine(const CheckedProgram& program, const dsl::KernelInfo& kernel, const RunRequest& request)
      : program_(program), ast_(program.ast), sema_(program.sema), kernel_(kernel), request_(request) {}

  RunOutputs run();

 private:
  // --- setup ----------------------------------------------------------------------------------------------
  void bindModule();
  void bindParams();
  int64_t coresOfSplit() const;

  // --- statements -----------------------------------------------------------------------------------------
  void block(std::span<const NodeId> stmts);
  void statement(NodeId id);
  void forLoop(NodeId id);

  // --- expressions ----------------------------------------------------------------------------------------
  Value eval(NodeId id);
  Value evalName(NodeId id);
  Value evalChain(NodeId id);
  Value evalUnary(NodeId id);
  Value evalBinary(NodeId id, OpKind op, const Value& a, const Value& b);
  Value evalCompare(NodeId id);
  Value evalAttribute(NodeId id);
  Value evalSubscript(NodeId id);
  Value evalCall(NodeId id);
  Value scalarArith(NodeId id, OpKind op, const Value& a, const Value& b);

  int64_t asInt(NodeId id, const Value& v);
  double asNumber(NodeId id, const Value& v);
  Tile asTile(NodeId id, const Value& v, DType dtype);
  const Tile& tileOf(NodeId id, const Value& v);
  std::vector<int64_t> shapeOf(NodeId tupleOrDim);
  DType dtypeArg(NodeId id) const;

  // --- builtins -------------------------------------------------------------------------------------------
  Tile load(NodeId id, const View& view, double pad);
  void store(NodeId id, const View& view, const Tile& value, bool accumulate);
  Tile gather(NodeId id, const Tile& table, const Tile& index);
  std::vector<int64_t> viewShape(const View& view) const;

  [[noreturn]] void fail(NodeId at, std::string message, std::string hint = {}) {
    throw RunError{at, std::move(message), std::move(hint)};
  }
  /// A program the checker accepted but the interpreter cannot evaluate: a bug in one of them, reported at the
  /// node rather than crashing (asserts vanish in release builds).
  [[noreturn]] void internalError(NodeId at, const std::string& what) {
    throw RunError{at, "internal error in the reference interpreter: " + what, "please report this program"};
  }
  const dsl::Type& typeOf(NodeId id) const { return sema_.types[id]; }
  std::string nameOf(NodeId id) const {
    return ast_.kind(id) == NodeKind::Name ? ast_.node(id).name : std::string("value");
  }

  const CheckedProgram& program_;
  const dsl::Ast& ast_;
  const dsl::SemaResult& sema_;
  const dsl::KernelInfo& kernel_;
  const RunRequest& request_;

  std::map<std::string, Value> module_;
  std::map<std::string, Value> env_;
  std::map<std::string, size_t> paramIndex_;
  std::vector<HostTensor> tensors_;  // per param (empty for attributes)
  std::vector<std::vector<int64_t>> shapes_;
  int64_t core_ = 0;
  int64_t coreCount_ = 1;
};

}  // namespace tilecraft::interp::detail
