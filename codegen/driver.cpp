#include "codegen/driver.h"

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <ostream>

#include "codegen/emitter.h"
#include "dsl/driver.h"
#include "passes/lower.h"
#include "passes/pipeline.h"

namespace tilecraft::codegen {

namespace {

// Attribute defaults (`eps: f32 = 1e-5`) for the launcher: the IR keeps attributes as tiling fields only.
std::map<std::string, double> attrDefaults(const dsl::Ast& ast, const dsl::SemaResult& sema,
                                           const std::string& kernel) {
  std::map<std::string, double> out;
  for (const dsl::KernelInfo& k : sema.kernels) {
    if (k.name != kernel) continue;
    for (const dsl::ParamInfo& p : k.params) {
      if (p.isTensor || ast.node(p.node).kids.size() < 2) continue;
      const dsl::Type& t = sema.types[ast.child(p.node, 1)];
      if (t.constFloat) out[p.name] = *t.constFloat;
      else if (t.constInt) out[p.name] = static_cast<double>(*t.constInt);
    }
  }
  return out;
}

// The file's lines as the source manager counts them, so a node's line number and the comment that quotes it
// agree whatever the front end takes for a line end.
std::vector<std::string> sourceLines(const support::SourceManager& sources, support::FileId file) {
  std::vector<std::string> lines;
  uint32_t count = sources.lineCol(file, static_cast<uint32_t>(sources.text(file).size())).line;
  for (uint32_t line = 1; line <= count; ++line) lines.emplace_back(sources.lineText(file, line));
  return lines;
}

// Lowering and the pipeline on a checked program; the module, or nullopt when a step reported an error or the
// verifier failed (its failures, compiler bugs, in `internalErrors`).
std::optional<ir::Module> lowerProgram(dsl::Program& p, std::vector<std::string>& internalErrors) {
  ir::Module module = passes::lower(p.ast, p.sema, p.sources, p.diagnostics);
  // Each step runs only on a program the previous one accepted, so errors never cascade.
  if (p.diagnostics.hasErrors()) return std::nullopt;
  std::vector<std::string> verifierErrors;
  bool ok = passes::runPipeline(module, passes::PipelineOptions{}, p.diagnostics, &verifierErrors);
  for (const std::string& e : verifierErrors) internalErrors.push_back("IR verifier: " + e);
  if (!ok) return std::nullopt;
  return module;
}

EmitOptions emitOptions(const dsl::Program& p, const ir::Kernel& kernel, const std::string& namespaceName) {
  EmitOptions emit;
  emit.sourceName = std::filesystem::path(p.path).filename().string();
  emit.sourceLines = sourceLines(p.sources, p.file);
  emit.attrDefaults = attrDefaults(p.ast, p.sema, kernel.name);
  emit.namespaceName = namespaceName;
  return emit;
}

// Lowering, the pipeline and the emitter on a checked program; returns the verifier's failures (compiler
// bugs).
std::vector<std::string> emitProgram(dsl::Program& p, const std::string& namespaceName, const std::string& what,
                                     const KernelEmit& emitKernel) {
  std::vector<std::string> internalErrors;
  std::optional<ir::Module> module = lowerProgram(p, internalErrors);
  if (!module) return internalErrors;
  std::string fileName = std::filesystem::path(p.path).filename().string();
  if (module->kernels.size() != 1) {
    p.diagnostics
        .error(support::Span{p.file, 0, 0},
               fmt::format("{} needs exactly one kernel per file; {} has {}", what, fileName, module->kernels.size()))
        .hint("put each @kernel in its own .tile file");
    return internalErrors;
  }
  emitKernel(module->kernels[0], emitOptions(p, module->kernels[0], namespaceName), p.diagnostics);
  return internalErrors;
}

}  // namespace

std::vector<std::string> checkWholePipeline(dsl::Program& p) {
  std::vector<std::string> internalErrors;
  std::optional<ir::Module> module = lowerProgram(p, internalErrors);
  if (!module) return internalErrors;
  for (const ir::Kernel& kernel : module->kernels) emitAscendC(kernel, emitOptions(p, kernel, ""), p.diagnostics);
  return internalErrors;
}

int compileKernel(const AscendCOptions& options, const std::string& what, const KernelEmit& emitKernel,
                  std::ostream& err) {
  return dsl::compileFile(
      {options.file, options.diagnostics, false, options.params, options.everyInstantiation},
      [&](dsl::Program& p) { return emitProgram(p, options.namespaceName, what, emitKernel); }, err);
}

int compileToAscendC(const AscendCOptions& options, std::string& code, std::string& kernelName, std::ostream& err,
                     TileLineMap* tileLines) {
  int status = compileKernel(
      options, "--emit=ascendc",
      [&](const ir::Kernel& kernel, const EmitOptions& emit, support::DiagnosticEngine& diagnostics) {
        code = emitAscendC(kernel, emit, diagnostics, tileLines);
        kernelName = kernel.name;
      },
      err);
  if (status != 0) code.clear();
  return status;
}

int runCompileAscendC(const AscendCOptions& options, std::ostream& out, std::ostream& err) {
  std::string code, kernel;
  int status = compileToAscendC(options, code, kernel, err);
  if (status == 0) out << code;
  return status;
}

}  // namespace tilecraft::codegen
