// Semantic checks of the Tile DSL: names, types, dtypes per operation on 910B, shapes and broadcasting, stage
// rules, legal data paths between memories, buffer capacity per memory, index and slice ranges.
// The result annotates every AST node with its type, so lowering reads facts instead of re-deriving them.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.h"
#include "dsl/builtins.h"
#include "dsl/types.h"
#include "support/diagnostic.h"

namespace tilecraft::dsl {

/// One dimension of a tensor or tile shape.
struct Dim {
  enum class Kind : unsigned char {
    Const,  // known extent `value`
    Sym,    // a module-level dim() resolved by host tiling; `value` is its declared max (0 = unbounded)
    Tile,   // the extent of tile variable `ref`: at most `value` (the tile size), less in the tail tile
  };
  Kind kind = Kind::Const;
  int64_t value = 0;
  NodeId ref = kNoNode;  // Sym: the ConstDef; Tile: the loop variable's Name node
  std::string name;      // Sym: the dim name; Tile: the loop variable
};
bool sameDim(const Dim& a, const Dim& b);
/// "(t, N)" for messages about shapes; "t" is a tile loop variable.
std::string shapeStr(const std::vector<Dim>& shape);

// clang-format off
enum class TypeKind : unsigned char {
  Error,      // already diagnosed: every use is silently accepted, so errors do not cascade
  None,       // statements, None
  Int, Float, Bool, String,
  DTypeName,  // f16, f32, ...
  MemName,    // UB, L1, ...
  StageName,  // copyin, compute, copyout
  Cores,      // vector_cores() / cube_cores()
  Range,      // this core's share of an extent, from split()
  Tile,       // a tile loop variable: .start, .len, .size
  Tensor,     // a GM tensor parameter, or a view of one (x[t, :])
  Buffer,     // an on-chip tile value in `mem`
  Function,   // a builtin name, before it is called
};
// clang-format on

/// An integer as sum(coefficient x atom) + constant, so slice widths such as (i + 64) - i fold to constants.
/// Atoms are dim names, loop variables and tile fields ("t.start").
struct Affine {
  std::map<std::string, int64_t> terms;
  int64_t constant = 0;
};

enum class Stage : unsigned char { None, CopyIn, Compute, CopyOut };
const char* stageName(Stage stage);

struct Type {
  TypeKind kind = TypeKind::Error;
  DType dtype = DType::F32;
  Mem mem = Mem::GM;
  std::vector<Dim> shape;
  std::optional<int64_t> constInt;  // Int known at compile time
  std::optional<Affine> affine;     // Int as an affine form, when it is one
  std::optional<double> constFloat;
  bool device = false;              // an Int/Float/Bool that depends on the core or a loop: not usable as a tile size
  bool cube = false;                // Cores: cube_cores()
  int64_t cores = 0;                // Cores: the requested count, 0 = all of that kind
  NodeId ref = kNoNode;             // Tile: its loop variable's Name node; Tensor: its Param node
  std::optional<Builtin> builtin;   // Function
  std::optional<DType> dtypeValue;  // DTypeName
  std::optional<Mem> memValue;      // MemName
  std::optional<Stage> stageValue;  // StageName

  static Type error() { return Type{}; }
  bool isError() const { return kind == TypeKind::Error; }
  bool isScalar() const { return kind == TypeKind::Int || kind == TypeKind::Float || kind == TypeKind::Bool; }
};
/// "f16[t, N] in UB", "int", "tile" ... for messages and the typed AST dump.
std::string typeStr(const Type& type);

enum class CoreKind : unsigned char { Vector, Cube, Mixed };
const char* coreKindName(CoreKind kind);

struct ParamInfo {
  NodeId node = kNoNode;
  std::string name;
  bool isTensor = false;
  Type type;  // Tensor (dtype, shape) or a scalar attribute
  /// `Tensor[T, (..., M, N)]`: an actual tensor of any rank >= the shape's folds its leading dimensions into the
  /// first one (M is their product, 1 when there are none).
  bool foldsLeading = false;
  bool loaded = false;
  bool stored = false;
};

struct KernelInfo {
  NodeId node = kNoNode;
  std::string name;
  CoreKind coreKind = CoreKind::Vector;
  int64_t cores = 0;  // requested count; 0 = every core of the kind; 1 when the kernel has no split or grid
  std::vector<ParamInfo> params;
  // Per Mem: the end of the checker's layout of its buffers (double buffers, work buffers, alignment), at the
  // chosen tile sizes; the planner's layout of the same kernel ends at or below it.
  std::array<int64_t, 6> peakBytes{};
};

struct SemaResult {
  std::vector<Type> types;                    // per NodeId
  std::vector<std::optional<Builtin>> calls;  // per NodeId: the builtin a Call resolves to
  std::vector<Stage> stages;                  // per NodeId: the stage block a statement is in
  std::vector<KernelInfo> kernels;
};

SemaResult check(const support::SourceManager& sources, const Ast& ast, support::DiagnosticEngine& diagnostics);

/// The AST dump with each expression's type, for `--emit=ast` and golden tests.
std::string printTypedAst(const support::SourceManager& sources, const Ast& ast, const SemaResult& sema);

}  // namespace tilecraft::dsl
