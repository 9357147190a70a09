// Shared state of one kernel's emission: names of everything the generated code declares, the C++ spelling of
// IR scalars, extents and row pitches, and the "not supported yet" reporting. Internal to codegen/.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "codegen/code_printer.h"
#include "codegen/emitter.h"
#include "ir/ir.h"
#include "support/diagnostic.h"

namespace tilecraft::codegen::detail {

/// Where a scalar expression is printed: inside the kernel class (tiling_.x, loop members) or in host code (t.x).
enum class Where { Device, Host };

class EmitContext {
 public:
  EmitContext(const ir::Kernel& kernel, const EmitOptions& options, support::DiagnosticEngine& diagnostics);

  const ir::Kernel& k;
  const EmitOptions& options;

  // ---- names -------------------------------------------------------------------------------------------------
  std::string className;   // KernelAdd
  std::string tilingName;  // AddTilingData
  std::string entryName;   // add (the extern "C" symbol)
  std::string opType;      // AddCustom (the CANN operator type of --emit=project; no clash with built-in Add)
  std::string bufferName(ir::BufferId id) const { return bufNames_[id]; }  // "a", "tmp0", "accOut"
  /// The LocalTensor expression for a buffer inside a stage method: a local (`aLocal`) or a member (`bLocal_`).
  std::string tensor(ir::BufferId id) const;
  std::string queueMember(ir::BufferId id) const { return bufNames_[id] + "Que_"; }
  std::string gmMember(uint32_t param) const { return k.params[param].name + "Gm_"; }
  std::string loopMember(uint32_t loop, const char* field) const;  // tStart_, tLen_, tIdx_
  std::string splitMember(uint32_t split, const char* field) const;
  std::string deviceVar(uint32_t var) const;  // a device scalar's member: `i_`
  bool isMember(ir::BufferId id) const { return memberBuf_[id]; }
  /// The prefix of the locals one copy or cube op declares (`aParams`, `aPad`): the buffer's name the first time
  /// in a method, then with a suffix (`a_2`), so a name loaded or stored twice in one stage declares no local twice.
  std::string localPrefix(const std::string& base);
  void resetLocals() { localPrefixes_.clear(); }
  void setMember(ir::BufferId id) { memberBuf_[id] = true; }

  // ---- types and values ----------------------------------------------------------------------------------------
  static std::string cppType(ir::DType dtype);
  static std::string floatLiteral(double value);
  std::string scalar(ir::NodeId id, Where where) const;
  /// One node of a scalar tree, given its operands' C++.
  std::string scalarNode(const ir::Node& n, std::vector<std::string>& args, Where where) const;
  /// The scalar converted to the element type of a vector operand: `static_cast<half>(...)`.
  std::string scalarAs(ir::NodeId id, ir::DType dtype) const;

  // ---- shapes --------------------------------------------------------------------------------------------------
  /// The run-time value of an extent (a tile's current length, a tiling field, a constant).
  std::string extent(const ir::Extent& e, Where where = Where::Device) const;
  /// Elements per 32-byte block of a dtype.
  static int64_t blockElems(ir::DType dtype);
  /// The distance in elements between rows of a buffer in UB: its innermost extent rounded up to 32 bytes (for a
  /// bool mask, a uint8_t tensor of one bit per element, the distance in bytes).
  std::string pitch(ir::BufferId id) const;
  /// Rows of a buffer: the product of all but its innermost extent ("1" for a 1-D buffer).
  std::string rows(ir::BufferId id) const;
  std::string inner(ir::BufferId id) const;
  /// True when the buffer's rows need no padding (innermost extent a constant multiple of 32 bytes, or one row).
  bool dense(ir::BufferId id) const;
  bool oneRow(ir::BufferId id) const;

  // ---- comments and errors -------------------------------------------------------------------------------------
  /// "// add.tile:12: c = a + b", or "" for compiler-made nodes.
  std::string lineComment(uint32_t line) const;
  /// Emits the DSL line comment when the line differs from the last one commented in this printer section, and
  /// makes `line` the source-map line of what follows (also when the comment is left out).
  void comment(CodePrinter& p, uint32_t line);
  void resetComment() { lastLine_ = 0; }
  void unsupported(const ir::Node& node, const std::string& what);
  bool failed() const { return failed_; }

 private:
  void checkNames();
  void checkDevicePowers();

  support::DiagnosticEngine& diagnostics_;
  std::vector<std::string> bufNames_;
  std::vector<bool> memberBuf_;
  std::vector<std::string> loopNames_;
  std::set<std::string> localPrefixes_;  // handed out in the current method
  uint32_t lastLine_ = 0;
  bool failed_ = false;
};

/// Sections of the emitted file, one per concern (emit_host.cpp, emit_kernel.cpp, emit_launcher.cpp).
void emitTiling(EmitContext& c, CodePrinter& p);       // the tiling struct, the device-side copy, the helpers
void emitHostTiling(EmitContext& c, CodePrinter& p);   // the host function filling the tiling struct
void emitKernelClass(EmitContext& c, CodePrinter& p);  // the kernel class
/// How the entry gets its tiling: CopyTiling (the standalone file) or CANN's GET_TILING_DATA (the project).
enum class TilingFetch { CopyTiling, GetTilingData };
void emitEntry(EmitContext& c, CodePrinter& p, TilingFetch fetch = TilingFetch::CopyTiling);  // the __global__ entry
// Parts of the above the CANN project (emit_project.cpp) shares: the tiling struct's fields under another name,
// the integer helpers with a qualifier ("__aicore__ inline" or "inline"), the host function for a struct name.
void emitTilingStruct(EmitContext& c, CodePrinter& p, const std::string& name);
void emitTilingHelpers(CodePrinter& p, const std::string& qualifier);
void emitHostTiling(EmitContext& c, CodePrinter& p, const std::string& name);
void emitLauncher(EmitContext& c, CodePrinter& p);  // the CPU-debug main
/// One tile op inside a stage method (emit_ops.cpp, emit_copy.cpp).
void emitTileOp(EmitContext& c, CodePrinter& p, const ir::Node& node);
void emitLoad(EmitContext& c, CodePrinter& p, const ir::Node& node);
void emitStore(EmitContext& c, CodePrinter& p, const ir::Node& node);
void emitCompare(EmitContext& c, CodePrinter& p, const ir::Node& node);  // emit_compare.cpp
void emitSelect(EmitContext& c, CodePrinter& p, const ir::Node& node);
/// The V_S (S_V) event pair before (after) a stretch of scalar-unit GetValue/SetValue work (emit_ops.cpp).
void vectorToScalar(CodePrinter& p);
void scalarToVector(CodePrinter& p);

/// Tensor parameters in entry order: inputs (and in/out tensors) in declaration order, then outputs.
std::vector<uint32_t> tensorParams(const ir::Kernel& k);
/// The tiling struct's fields: every var that lives in the tiling struct, in var order.
std::vector<uint32_t> tilingVars(const ir::Kernel& k);
std::string tilingFieldType(const ir::Var& v);
const char* tilingFieldKind(const ir::Var& v);  // "dim", "attribute" or "host value"

/// The block-size constant a kernel launches with, and the KernelMode it needs.
int64_t blockDim(const ir::Kernel& k);
const char* kernelMode(const ir::Kernel& k);

}  // namespace tilecraft::codegen::detail
