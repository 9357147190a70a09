// Private to lower*.cpp: the state of lowering one kernel.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.h"
#include "dsl/sema.h"
#include "ir/builder.h"
#include "ir/ir.h"
#include "support/diagnostic.h"

namespace tilecraft::passes::detail {

/// What a DSL name stands for inside a kernel.
struct Binding {
  enum class Kind : unsigned char { Buffer, Var, Loop, Split, Param };
  Kind kind = Kind::Var;
  uint32_t id = ir::kNone;
};

/// A lowered expression: a tile in a buffer, or a scalar expression.
struct Value {
  ir::BufferId buffer = ir::kNone;
  ir::NodeId scalar = ir::kNone;
  bool isTile() const { return buffer != ir::kNone; }
};

/// Thrown (and caught per kernel) when a construct cannot be lowered; the diagnostic is already reported.
struct Unsupported {};

class KernelLowering {
 public:
  KernelLowering(const dsl::Ast& ast, const dsl::SemaResult& sema, const support::SourceManager& sources,
                 support::DiagnosticEngine& diag, const dsl::KernelInfo& info, ir::Kernel& kernel);
  void run();

  // --- lower.cpp: declarations and statements ---
  void params();
  void statements(std::span<const dsl::NodeId> stmts);
  void statement(dsl::NodeId id);
  void assign(dsl::NodeId id, dsl::NodeId target, dsl::NodeId value, dsl::OpKind augmented);
  void forLoop(dsl::NodeId id);
  void gridLoop(dsl::NodeId id, dsl::NodeId iter);
  void withStage(dsl::NodeId id);
  void ifStmt(dsl::NodeId id);
  void store(dsl::NodeId call);
  ir::NodeId storeComputeStage();
  [[noreturn]] void unsupported(dsl::NodeId at, const std::string& message, const std::string& hint);

  // --- lower_expr.cpp: expressions ---
  Value expr(dsl::NodeId id, ir::BufferId dst = ir::kNone, const std::string& name = "");
  ir::NodeId scalar(dsl::NodeId id);
  ir::NodeId scalarPow(ir::NodeId base, ir::NodeId exponent);
  void hoistHostPowers();
  ir::NodeId scalarNode(dsl::NodeId id);
  ir::BufferId tile(dsl::NodeId id, ir::BufferId dst = ir::kNone, const std::string& name = "");
  ir::BufferId tileNode(dsl::NodeId id, ir::BufferId dst, const std::string& name);
  bool isTileLink(dsl::NodeId id) const;
  bool isScalarLink(dsl::NodeId id) const;
  Value call(dsl::NodeId id, ir::BufferId dst, const std::string& name);
  Value arith(dsl::NodeId id, dsl::OpKind op, dsl::NodeId lhs, dsl::NodeId rhs, ir::BufferId dst,
              const std::string& name);
  Value compare(dsl::NodeId id, dsl::OpKind op, dsl::NodeId lhs, dsl::NodeId rhs, ir::BufferId dst,
                const std::string& name);
  ir::BufferId elementwise(dsl::NodeId id, ir::Op tileOp, ir::Op scalarOp, dsl::NodeId lhs, dsl::NodeId rhs,
                           ir::BufferId dst, const std::string& name);
  ir::BufferId matmul(dsl::NodeId id, dsl::NodeId lhs, dsl::NodeId rhs, ir::BufferId dst, const std::string& name);
  std::pair<dsl::NodeId, dsl::NodeId> positionalOperands(dsl::NodeId product);
  ir::BufferId toShape(ir::BufferId src, const std::vector<ir::Extent>& shape);
  ir::BufferId result(dsl::NodeId id, ir::BufferId dst, const std::string& name);
  ir::BufferId temp(ir::Mem mem, ir::DType dtype, std::vector<ir::Extent> shape, const std::string& name = "");
  ir::NodeId scalarFor(ir::NodeId scalar, ir::DType tileDtype);
  std::vector<ir::GmIndex> access(dsl::NodeId view, uint32_t* param, ir::BufferId* gatherIndex);
  std::vector<ir::Extent> extents(const std::vector<dsl::Dim>& dims, dsl::NodeId at);
  ir::Extent extent(const dsl::Dim& dim, dsl::NodeId at);
  uint32_t dimVar(dsl::NodeId constDef, const std::string& name, int64_t max);
  int axisOf(dsl::NodeId call, size_t rank);
  std::map<std::string, dsl::NodeId> keywords(dsl::NodeId call);
  /// A True/False keyword value (transpose=, accumulate=).
  bool flag(dsl::NodeId value) const;
  std::vector<dsl::NodeId> positional(dsl::NodeId call);

  // --- helpers ---
  const dsl::Type& type(dsl::NodeId id) const { return sema_.types[id]; }
  const Binding* lookup(const std::string& name) const;
  void bindName(const std::string& name, Binding binding);
  void emit(ir::NodeId statement);
  void setLine(dsl::NodeId id);

  const dsl::Ast& ast_;
  const dsl::SemaResult& sema_;
  const support::SourceManager& sources_;
  support::DiagnosticEngine& diag_;
  const dsl::KernelInfo& info_;
  ir::Kernel& k_;
  ir::Builder b_;
  std::vector<std::map<std::string, Binding>> scopes_;
  std::map<dsl::NodeId, uint32_t> dimVars_;         // ConstDef node -> var
  std::map<dsl::NodeId, uint32_t> loopOf_;          // loop variable Name node -> loop id
  std::vector<ir::NodeId> parents_;                 // where statements go (innermost last)
  std::map<ir::NodeId, ir::NodeId> stageOfOp_;      // tile op -> the stage it is in
  std::map<ir::NodeId, ir::NodeId> parentOfStage_;  // stage -> the block or loop holding it
  ir::NodeId currentStage_ = ir::kNone;
  ir::NodeId storeCompute_ = ir::kNone;  // compute stage that computes the store values of this copyout
  int temps_ = 0;
  std::map<dsl::NodeId, ir::BufferId> loweredTiles_;  // links of an operator chain lowered ahead of their parent
  std::map<dsl::NodeId, ir::NodeId> loweredScalars_;
};

}  // namespace tilecraft::passes::detail
