// Makes IR nodes and checks each one's local invariants as it is made (internal asserts): operand dtypes,
// shapes and memories of every op, scalar operands really being scalars. The whole-kernel rules (definition
// before use, stage placement, planned offsets) are the verifier's.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/ir.h"

namespace tilecraft::ir {

class Builder {
 public:
  explicit Builder(Kernel& kernel) : k_(kernel) {}

  /// The DSL line stamped on the nodes made from now on (0: made by the compiler).
  void setSource(support::Span span, uint32_t line) {
    span_ = span;
    line_ = line;
  }

  uint32_t addVar(Var var);
  uint32_t addLoop(LoopInfo loop);
  uint32_t addSplit(SplitInfo split);
  BufferId addBuffer(std::string name, Mem mem, DType dtype, std::vector<Extent> shape,
                     BufferKind kind = BufferKind::Value);

  // Scalars.
  NodeId intConst(int64_t value);
  NodeId floatConst(double value);
  NodeId varRef(uint32_t var);
  NodeId loopField(uint32_t loop, Op field);
  NodeId splitField(uint32_t split, Op field);
  NodeId blockIdx();
  NodeId scalarUnary(Op op, NodeId operand);
  NodeId scalarBinary(Op op, NodeId lhs, NodeId rhs);
  /// The one type rule of scalar operators: a comparison or logic gives bool; `/`, or a float operand, gives f32
  /// (so `**` with a float operand is a float power); two integers give i64.
  static DType scalarBinaryType(Op op, DType lhs, DType rhs);

  // Structure. Statements are appended to a body by the caller (append()).
  NodeId block();
  NodeId coreSplit(uint32_t split, NodeId extent, int64_t cores);
  NodeId tileLoop(uint32_t loop, NodeId start, NodeId len, int64_t size, int buffers);
  NodeId rangeLoop(uint32_t loop, NodeId start, NodeId stop, NodeId step);
  NodeId ifStmt(NodeId cond);
  NodeId stage(Stage stage);
  NodeId scalarDef(uint32_t var, NodeId value);
  void append(NodeId parent, NodeId statement);

  // Tile ops.
  NodeId load(BufferId dst, uint32_t param, std::vector<GmIndex> access, double padValue, BufferId index = kNone);
  NodeId store(uint32_t param, std::vector<GmIndex> access, BufferId value, bool accumulate);
  NodeId copy(BufferId dst, BufferId src, bool transpose);
  NodeId fill(BufferId dst, NodeId value);
  NodeId cast(BufferId dst, BufferId src);
  NodeId unary(Op op, BufferId dst, BufferId src);
  NodeId binary(Op op, BufferId dst, BufferId a, BufferId b);
  NodeId binaryScalar(Op op, BufferId dst, BufferId x, NodeId scalar);
  NodeId compare(Op op, BufferId dst, BufferId a, BufferId b);
  NodeId compareScalar(Op op, BufferId dst, BufferId a, NodeId scalar);
  NodeId select(BufferId dst, BufferId mask, BufferId a, BufferId b);
  NodeId broadcast(BufferId dst, BufferId src);
  NodeId reduce(Op op, BufferId dst, BufferId src, int axis);
  NodeId scan(Op op, BufferId dst, BufferId src, int axis);
  NodeId gather(BufferId dst, BufferId table, BufferId index);
  NodeId matmul(BufferId dst, BufferId a, BufferId b, bool accumulate);
  NodeId sync(NodeKind kind, BufferId buffer);
  NodeId flag(BufferId buffer, Pipe from, Pipe to);

  /// True when `a` and `b` have the same extents (upper bounds and symbols).
  static bool sameShape(const std::vector<Extent>& a, const std::vector<Extent>& b);
  /// `src` stretches to `dst` where its extents are 1 (numpy rules, aligned from the last dimension).
  static bool broadcastsTo(const std::vector<Extent>& src, const std::vector<Extent>& dst);

 private:
  NodeId add(Node node);
  const Buffer& buf(BufferId id) const;
  void checkScalar(NodeId id) const;
  NodeId makeOp(NodeKind kind, Op op, BufferId dst, std::vector<BufferId> srcs);
  BufferId workFor(Op op, BufferId src, BufferId dst);

  Kernel& k_;
  // Buffer names in use and the next suffix to try per name, so a name reassigned thousands of times costs
  // no scan of every buffer; synced with k_.buffers, which other builders of the kernel may also extend.
  std::unordered_set<std::string> bufferNames_;
  std::unordered_map<std::string, int> nextSuffix_;
  size_t namesSynced_ = 0;
  uint32_t line_ = 0;
  support::Span span_;
};

}  // namespace tilecraft::ir
