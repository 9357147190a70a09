// The host-facing parts of the emitted file: the tiling struct (POD, copied word by word from GM because CANN's
// CPU-debug headers have no GET_TILING_DATA), the scalar helpers, the host tiling function and the kernel entry.
// The CANN project (emit_project.cpp) reuses the struct, the helpers and the host tiling function on the host
// side and the entry with GET_TILING_DATA.
#include <fmt/format.h>

#include "codegen/emit_context.h"
#include "codegen/emit_cube.h"

namespace tilecraft::codegen::detail {

std::vector<uint32_t> tensorParams(const ir::Kernel& k) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < k.params.size(); ++i) {
    if (k.params[i].role != ir::TensorRole::Attr && k.params[i].role != ir::TensorRole::Out) order.push_back(i);
  }
  for (uint32_t i = 0; i < k.params.size(); ++i) {
    if (k.params[i].role == ir::TensorRole::Out) order.push_back(i);
  }
  return order;
}

std::vector<uint32_t> tilingVars(const ir::Kernel& k) {
  std::vector<uint32_t> vars;
  for (uint32_t i = 0; i < k.vars.size(); ++i) {
    if (k.vars[i].inTiling()) vars.push_back(i);
  }
  return vars;
}

std::string tilingFieldType(const ir::Var& v) { return dsl::isFloat(v.dtype) ? "float" : "int64_t"; }

const char* tilingFieldKind(const ir::Var& v) {
  return v.kind == ir::Var::Kind::Dim ? "dim" : v.kind == ir::Var::Kind::Attr ? "attribute" : "host value";
}

void emitTilingStruct(EmitContext& c, CodePrinter& p, const std::string& name) {
  p.open("struct " + name);
  for (uint32_t v : tilingVars(c.k)) {
    const ir::Var& var = c.k.vars[v];
    std::string field = fmt::format("{} {};", tilingFieldType(var), var.name);
    p.line(fmt::format("{:<28}// {}", field, tilingFieldKind(var)));
  }
  if (tilingVars(c.k).empty()) p.line("int64_t unused;  // CANN needs a non-empty tiling struct");
  p.close(";");
}

void emitTilingHelpers(CodePrinter& p, const std::string& qualifier) {
  p.line("// Integer helpers of the tiling arithmetic (sizes are never negative).");
  p.line(qualifier + " int64_t TcCdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }");
  p.line(qualifier + " int64_t TcMin(int64_t a, int64_t b) { return a < b ? a : b; }");
  p.line(qualifier + " int64_t TcMax(int64_t a, int64_t b) { return a > b ? a : b; }");
  p.line(qualifier + " int64_t TcAlignUp(int64_t a, int64_t b) { return (a + b - 1) / b * b; }");
  p.open(qualifier + " int64_t TcPow(int64_t a, int64_t b)");
  p.line("int64_t r = 1;");
  p.line("for (int64_t i = 0; i < b; ++i) r *= a;");
  p.line("return r;");
  p.close();
}

void emitTiling(EmitContext& c, CodePrinter& p) {
  p.line("// Tiling: the values the host computes from the shapes and attributes (dims, attributes, per-core");
  p.line("// split sizes), passed to the kernel through GM.");
  emitTilingStruct(c, p, c.tilingName);
  p.blank();
  p.open(fmt::format("__aicore__ inline void CopyTiling({}* tiling, GM_ADDR tilingGm)", c.tilingName));
  p.line("auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);");
  p.line("auto dst = reinterpret_cast<uint32_t*>(tiling);");
  p.line(fmt::format("for (size_t i = 0; i < sizeof({}) / sizeof(uint32_t); ++i) dst[i] = src[i];", c.tilingName));
  p.close();
  p.blank();
  emitTilingHelpers(p, "__aicore__ inline");
}

void emitHostTiling(EmitContext& c, CodePrinter& p) { emitHostTiling(c, p, c.tilingName); }

void emitHostTiling(EmitContext& c, CodePrinter& p, const std::string& name) {
  std::vector<std::string> params;
  for (uint32_t v : tilingVars(c.k)) {
    const ir::Var& var = c.k.vars[v];
    if (var.kind == ir::Var::Kind::Dim || var.kind == ir::Var::Kind::Attr) {
      params.push_back(fmt::format("{} {}", tilingFieldType(var), var.name));
    }
  }
  std::string list;
  for (const std::string& s : params) list += (list.empty() ? "" : ", ") + s;
  p.line("// Host tiling: the tiling struct from the shapes and attributes.");
  p.open(fmt::format("inline {} Compute{}({})", name, name, list));
  p.line(fmt::format("{} t{{}};", name));
  for (uint32_t v : tilingVars(c.k)) {
    const ir::Var& var = c.k.vars[v];
    if (var.kind == ir::Var::Kind::Dim || var.kind == ir::Var::Kind::Attr) {
      p.line(fmt::format("t.{} = {};", var.name, var.name));
    } else if (var.value != ir::kNone) {
      p.line(fmt::format("t.{} = {};", var.name, c.scalar(var.value, Where::Host)));
    }
  }
  p.line("return t;");
  p.close();
  if (c.k.coreKind == ir::CoreKind::Mixed) {
    p.blank();
    p.line("// The user workspace: one slot per cube core for the f32 tile it hands to its vector cores (CANN adds");
    p.line("// its system workspace in front of it on the device).");
    p.line(fmt::format("inline size_t {}WorkspaceBytes() {{ return {} * {} * sizeof(float); }}", c.tilingName,
                       blockDim(c.k), workspaceSlotElems(c.k)));
  }
}

void emitEntry(EmitContext& c, CodePrinter& p, TilingFetch fetch) {
  std::string params, args;
  for (uint32_t i : tensorParams(c.k)) {
    params += fmt::format("GM_ADDR {}, ", c.k.params[i].name);
    args += fmt::format("{}, ", c.k.params[i].name);
  }
  p.open(fmt::format("extern \"C\" __global__ __aicore__ void {}({}GM_ADDR workspace, GM_ADDR tiling)", c.entryName,
                     params));
  if (fetch == TilingFetch::GetTilingData && c.k.coreKind == ir::CoreKind::Vector) {
    p.line("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);");
  }
  if (c.k.coreKind == ir::CoreKind::Cube) p.line("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);");
  if (c.k.coreKind == ir::CoreKind::Mixed) {
    p.line("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);");
    args += "GetUserWorkspace(workspace), ";
  } else {
    p.line("(void)workspace;  // no workspace: every buffer of this kernel is on chip");
  }
  if (fetch == TilingFetch::GetTilingData) {
    p.line("GET_TILING_DATA(tilingData, tiling);");
  } else {
    p.line(fmt::format("{} tilingData;", c.tilingName));
    p.line("CopyTiling(&tilingData, tiling);");
  }
  p.line(fmt::format("{} op;", c.className));
  p.line(fmt::format("op.Init({}tilingData);", args));
  p.line("op.Process();");
  p.close();
}

}  // namespace tilecraft::codegen::detail
