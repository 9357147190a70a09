// The CPU-debug launcher: `main` under ASCENDC_CPU_DEBUG reads the dims and attributes from NAME=VALUE
// arguments, fills the inputs from files or a seed, runs the kernel with ICPU_RUN_KF and prints / writes the
// outputs. The fixed helpers are in launcher_runtime.cpp; this file writes the kernel-specific part (and a batch's
// shared head, batchPrelude()).
#include <fmt/format.h>

#include "codegen/emit_context.h"
#include "codegen/launcher_runtime.h"

namespace tilecraft::codegen::detail {

namespace {

const char* npyDescr(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::F16: return "'<f2'";
    case ir::DType::BF16: return "'<V2'";
    case ir::DType::F32: return "'<f4'";
    case ir::DType::I8: return "'|i1'";
    case ir::DType::U8: return "'|u1'";
    case ir::DType::I16: return "'<i2'";
    case ir::DType::I32: return "'<i4'";
    case ir::DType::I64: return "'<i8'";
    case ir::DType::Bool: return "'|u1'";
  }
  return "";
}

// The launcher's includes and its fixed runtime: once per file (a batch shares them between its kernels).
void launcherHead(CodePrinter& p) {
  p.line("#include \"tikicpulib.h\"");
  p.blank();
  p.line("#include <cmath>");
  p.line("#include <cstdint>");
  p.line("#include <cstdio>");
  p.line("#include <cstdlib>");
  p.line("#include <cstring>");
  p.line("#include <fstream>");
  p.line("#include <iterator>");
  p.line("#include <string>");
  p.line("#include <utility>");
  p.line("#include <vector>");
  p.blank();
  p.raw(launcherRuntime());
}

}  // namespace

void emitLauncher(EmitContext& c, CodePrinter& p) {
  const ir::Kernel& k = c.k;
  bool batched = !c.options.namespaceName.empty();
  p.line("#ifdef ASCENDC_CPU_DEBUG");
  if (!batched) {
    launcherHead(p);
    p.blank();
  }
  emitHostTiling(c, p);
  p.blank();
  p.line("// Usage: PROGRAM NAME=VALUE... [--seed S] [--in NAME=FILE.bin|.npy]... [--out-dir DIR] [--show K]");
  p.open(batched ? "int Run(int argc, char** argv)" : "int main(int argc, char** argv)");
  p.line("tclaunch::Options opts;");
  p.line("if (!tclaunch::Parse(argc, argv, opts)) return 2;");
  std::vector<std::string> valueNames, tensorNames;
  std::string call;
  for (uint32_t v : tilingVars(k)) {
    const ir::Var& var = k.vars[v];
    if (var.kind == ir::Var::Kind::Dim) {
      p.line(fmt::format("int64_t {} = 0;", var.name));
    } else if (var.kind == ir::Var::Kind::Attr) {
      auto def = c.options.attrDefaults.find(var.name);
      double value = def == c.options.attrDefaults.end() ? 0.0 : def->second;
      if (dsl::isFloat(var.dtype)) {
        p.line(fmt::format("float {} = {};", var.name, EmitContext::floatLiteral(value)));
      } else {
        p.line(fmt::format("int64_t {} = {};", var.name, static_cast<int64_t>(value)));
      }
    } else {
      continue;
    }
    valueNames.push_back(var.name);
    call += (call.empty() ? "" : ", ") + var.name;
  }
  p.line("bool ok = true;");
  for (uint32_t v : tilingVars(k)) {
    const ir::Var& var = k.vars[v];
    bool required = var.kind == ir::Var::Kind::Dim || !c.options.attrDefaults.count(var.name);
    if (var.kind == ir::Var::Kind::Dim || (var.kind == ir::Var::Kind::Attr && !dsl::isFloat(var.dtype))) {
      const char* what = var.kind == ir::Var::Kind::Dim ? "a dim of the kernel" : "an attribute without a default";
      bool isDim = var.kind == ir::Var::Kind::Dim;
      p.line(fmt::format("ok = tclaunch::GetInt(opts, \"{}\", &{}, {}, \"{}\"{}) && ok;", var.name, var.name, required,
                         what, isDim ? "" : ", true"));
    } else if (var.kind == ir::Var::Kind::Attr) {
      p.line(fmt::format("ok = tclaunch::GetFloat(opts, \"{}\", &{}, {}) && ok;", var.name, var.name, required));
    }
    if (var.kind == ir::Var::Kind::Dim && var.max > 0) {
      p.open(fmt::format("if ({} > {})", var.name, var.max));
      p.line(
          fmt::format("std::fprintf(stderr, \"error: {}=%lld is above its declared max {}\\n\", "
                      "static_cast<long long>({}));",
                      var.name, var.max, var.name));
      p.line("ok = false;");
      p.close();
    }
  }
  for (uint32_t i : tensorParams(k)) tensorNames.push_back(k.params[i].name);
  auto quoted = [](const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "\"" : ", \"") + n + "\"";
    return "{" + s + "}";
  };
  p.line(fmt::format("ok = tclaunch::CheckNames(opts, {}, {}) && ok;", quoted(valueNames), quoted(tensorNames)));
  p.line("if (!ok) return 2;");
  p.line(fmt::format("{} tiling = Compute{}({});", c.tilingName, c.tilingName, call));
  p.blank();
  std::string launchArgs;
  std::vector<std::string> shapes;
  for (uint32_t i : tensorParams(k)) {
    const ir::Param& prm = k.params[i];
    std::string type = EmitContext::cppType(prm.dtype);
    std::string count, shape;
    for (const ir::Extent& e : prm.shape) {
      // Dims are the launcher's locals of the same name.
      std::string dim = e.kind == ir::Extent::Kind::Dim ? k.vars[e.ref].name : std::to_string(e.value);
      count += (count.empty() ? "" : " * ") + dim;
      shape += (shape.empty() ? "" : ", ") + dim;
    }
    if (shape.empty()) shape = "1";
    p.line(fmt::format("const int64_t {}Count = {};", prm.name, count.empty() ? "1" : count));
    p.line(fmt::format("auto* {} = static_cast<{}*>(AscendC::GmAlloc(tclaunch::AllocBytes({}Count, sizeof({}))));",
                       prm.name, type, prm.name, type));
    if (prm.role != ir::TensorRole::Out) {
      int kind = dsl::isFloat(prm.dtype) ? 0 : prm.dtype == ir::DType::U8 ? 2 : 1;
      p.line(fmt::format("if (!tclaunch::Input({}, {}Count, \"{}\", \"{}\", {}, opts, {})) return 2;", prm.name,
                         prm.name, prm.name, npyDescr(prm.dtype), kind, i));
    }
    launchArgs += fmt::format("reinterpret_cast<uint8_t*>({}), ", prm.name);
    shapes.push_back(shape);
  }
  if (k.coreKind == ir::CoreKind::Mixed) {
    p.line(fmt::format("auto* workspace = static_cast<uint8_t*>(AscendC::GmAlloc({}WorkspaceBytes()));", c.tilingName));
  } else {
    p.line("auto* workspace = static_cast<uint8_t*>(AscendC::GmAlloc(32));");
  }
  p.line(fmt::format("auto* tilingGm = static_cast<{}*>(AscendC::GmAlloc(sizeof({})));", c.tilingName, c.tilingName));
  p.line(fmt::format("std::memcpy(tilingGm, &tiling, sizeof({}));", c.tilingName));
  p.blank();
  p.line(fmt::format("AscendC::SetKernelMode(KernelMode::{});", kernelMode(k)));
  p.line(fmt::format("ICPU_RUN_KF({}, {}, {}workspace, reinterpret_cast<uint8_t*>(tilingGm));", c.entryName,
                     blockDim(k), launchArgs));
  p.blank();
  size_t s = 0;
  for (uint32_t i : tensorParams(k)) {
    const ir::Param& prm = k.params[i];
    const std::string& shape = shapes[s++];
    if (prm.role != ir::TensorRole::Out && prm.role != ir::TensorRole::InOut) continue;
    p.line(fmt::format("ok = tclaunch::Output({}, \"{}\", \"{}\", \"{}\", {{{}}}, opts) && ok;", prm.name, prm.name,
                       dsl::dtypeName(prm.dtype), npyDescr(prm.dtype), shape));
  }
  for (uint32_t i : tensorParams(k)) p.line(fmt::format("AscendC::GmFree({});", k.params[i].name));
  p.line("AscendC::GmFree(workspace);");
  p.line("AscendC::GmFree(tilingGm);");
  p.line("return ok ? 0 : 1;");
  p.close();
  p.line("#endif  // ASCENDC_CPU_DEBUG");
}

}  // namespace tilecraft::codegen::detail

namespace tilecraft::codegen {

std::string batchPrelude() {
  CodePrinter p;
  p.line("#include \"kernel_operator.h\"");
  p.blank();
  p.line("using namespace AscendC;");
  p.blank();
  p.line("#ifdef ASCENDC_CPU_DEBUG");
  detail::launcherHead(p);
  p.line("#endif  // ASCENDC_CPU_DEBUG");
  return p.str();
}

}  // namespace tilecraft::codegen
