#include "ir/ir.h"

#include <fmt/format.h>

#include "dsl/sema_layout.h"
#include "ir/check.h"

namespace tilecraft::ir {

const char* nodeKindName(NodeKind kind) {
  static constexpr const char* kNames[] = {
#define X(k) #k,
      TILECRAFT_IR_NODE_KINDS(X)
#undef X
  };
  return kNames[static_cast<int>(kind)];
}

const char* opName(Op op) {
  static constexpr const char* kNames[] = {
#define X(name, spelling) spelling,
      TILECRAFT_IR_OPS(X)
#undef X
  };
  return kNames[static_cast<int>(op)];
}

namespace {
bool between(NodeKind kind, NodeKind lo, NodeKind hi) { return kind >= lo && kind <= hi; }
bool between(Op op, Op lo, Op hi) { return op >= lo && op <= hi; }
}  // namespace

bool isScalarKind(NodeKind kind) { return between(kind, NodeKind::IntConst, NodeKind::ScalarBinary); }
bool isTileOpKind(NodeKind kind) { return between(kind, NodeKind::Load, NodeKind::Matmul); }
bool isSyncKind(NodeKind kind) { return between(kind, NodeKind::Alloc, NodeKind::Flag); }
bool isVectorUnary(Op op) { return between(op, Op::Exp, Op::Erf); }
bool isVectorBinary(Op op) { return between(op, Op::Add, Op::Pow) || op == Op::Max || op == Op::Min; }
bool isVectorScalar(Op op) { return between(op, Op::Adds, Op::Pows); }
bool isCompare(Op op) { return between(op, Op::Eq, Op::Ge); }
bool isReduce(Op op) { return between(op, Op::ReduceSum, Op::Argmin); }
bool isScan(Op op) { return op == Op::Cumsum || op == Op::Cumprod; }
bool needsWorkBuffer(Op op) {
  // As the language reference marks them: reductions and the math calls AscendC implements with scratch
  // space.
  return isReduce(op) || between(op, Op::Tanh, Op::Erf) || op == Op::Pow || op == Op::Pows;
}

const char* stageName(Stage stage) {
  switch (stage) {
    case Stage::CopyIn: return "copyin";
    case Stage::Compute: return "compute";
    case Stage::CopyOut: return "copyout";
  }
  return "?";
}

const char* pipeName(Pipe pipe) {
  switch (pipe) {
    case Pipe::None: return "none";
    case Pipe::S: return "S";
    case Pipe::V: return "V";
    case Pipe::M: return "M";
    case Pipe::MTE1: return "MTE1";
    case Pipe::MTE2: return "MTE2";
    case Pipe::MTE3: return "MTE3";
    case Pipe::FIX: return "FIX";
  }
  return "?";
}

const char* roleName(TensorRole role) {
  switch (role) {
    case TensorRole::In: return "in";
    case TensorRole::Out: return "out";
    case TensorRole::InOut: return "inout";
    case TensorRole::Unused: return "unused";
    case TensorRole::Attr: return "attr";
  }
  return "?";
}

const char* queueKindName(QueueKind kind) {
  switch (kind) {
    case QueueKind::None: return "none";
    case QueueKind::VecIn: return "TQue<VECIN>";
    case QueueKind::VecOut: return "TQue<VECOUT>";
    case QueueKind::VecInOut: return "TQueBind<VECIN, VECOUT>";
    case QueueKind::A1: return "TQue<A1>";
    case QueueKind::B1: return "TQue<B1>";
    case QueueKind::A2: return "TQue<A2>";
    case QueueKind::B2: return "TQue<B2>";
    case QueueKind::CO1: return "TQue<CO1>";
    case QueueKind::Calc: return "TBuf<VECCALC>";
  }
  return "?";
}

const char* vecFormName(VecForm form) {
  switch (form) {
    case VecForm::Rows: return "rows";
    case VecForm::Flat: return "flat";
    case VecForm::Repeat: return "repeat";
    case VecForm::Padded: return "padded";
    case VecForm::Column: return "column";
    case VecForm::ColumnFlat: return "column-flat";
    case VecForm::FirstLanes: return "first-lanes";
  }
  return "?";
}

const char* coreKindName(CoreKind kind) {
  switch (kind) {
    case CoreKind::Vector: return "vector";
    case CoreKind::Cube: return "cube";
    case CoreKind::Mixed: return "mixed";
  }
  return "?";
}

int64_t alignmentOf(Mem mem) { return mem == Mem::L0A || mem == Mem::L0B ? 512 : 32; }

int64_t alignUp(int64_t value, int64_t align) { return (value + align - 1) / align * align; }

int64_t tileBytes(DType dtype, const std::vector<Extent>& shape) {
  std::vector<int64_t> extents;
  for (const Extent& e : shape) {
    TILECRAFT_CHECK(e.bounded(), "a buffer extent has no upper bound");
    extents.push_back(e.value);
  }
  return dsl::tileBytes(dtype, extents);  // the checker sizes tiles with the same function
}

}  // namespace tilecraft::ir
