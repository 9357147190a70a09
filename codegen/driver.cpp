#include "codegen/driver.h"

#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "codegen/emitter.h"
#include "dsl/lexer.h"
#include "dsl/parser.h"
#include "dsl/sema.h"
#include "passes/lower.h"
#include "passes/pipeline.h"
#include "support/diagnostic.h"
#include "support/source.h"

namespace tilecraft::codegen {

namespace {

// Attribute defaults (`eps: f32 = 1e-5`) for the launcher: the IR keeps attributes as tiling fields only.
std::map<std::string, double> attrDefaults(const dsl::Ast& ast, const dsl::SemaResult& sema, const std::string& kernel) {
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

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

int compileToAscendC(const AscendCOptions& options, std::string& code, std::string& kernelName, std::ostream& err) {
  if (options.diagnostics != "text" && options.diagnostics != "json") {
    err << fmt::format("error: unknown --diagnostics value '{}' (expected text or json)\n", options.diagnostics);
    return 2;
  }
  support::SourceManager sources;
  std::string readError;
  auto file = sources.addFile(options.file, &readError);
  if (!file) {
    err << "error: " << readError << "\n";
    return 2;
  }
  support::DiagnosticEngine diagnostics;
  std::vector<std::string> verifierErrors;
  std::vector<dsl::Token> tokens = dsl::lex(sources, *file, diagnostics);
  dsl::Ast ast = dsl::parse(tokens, diagnostics);
  // Each step runs only on a program the previous one accepted, so errors never cascade.
  if (!diagnostics.hasErrors()) {
    dsl::SemaResult sema = dsl::check(sources, ast, diagnostics);
    if (!diagnostics.hasErrors()) {
      ir::Module module = passes::lower(ast, sema, sources, diagnostics);
      passes::PipelineOptions pipeline;
      if (!diagnostics.hasErrors() && passes::runPipeline(module, pipeline, diagnostics, &verifierErrors)) {
        if (module.kernels.size() != 1) {
          diagnostics.error(support::Span{*file, 0, 0},
                            fmt::format("--emit=ascendc needs exactly one kernel per file; {} has {}",
                                        std::filesystem::path(options.file).filename().string(),
                                        module.kernels.size()))
              .hint("put each @kernel in its own .tile file");
        } else {
          EmitOptions emit;
          emit.sourceName = std::filesystem::path(options.file).filename().string();
          emit.sourceLines = splitLines(sources.text(*file));
          emit.attrDefaults = attrDefaults(ast, sema, module.kernels[0].name);
          code = emitAscendC(module.kernels[0], emit, diagnostics);
          kernelName = module.kernels[0].name;
        }
      }
    }
  }
  if (options.diagnostics == "json") {
    err << support::renderJson(sources, diagnostics.diagnostics());
  } else {
    err << support::renderText(sources, diagnostics.diagnostics());
    err << support::renderSummary(diagnostics.errorCount(), diagnostics.warningCount());
  }
  for (const std::string& e : verifierErrors) err << "internal compiler error: IR verifier: " << e << "\n";
  if (diagnostics.hasErrors() || !verifierErrors.empty()) {
    code.clear();
    return 1;
  }
  return 0;
}

int runCompileAscendC(const AscendCOptions& options, std::ostream& out, std::ostream& err) {
  std::string code, kernel;
  int status = compileToAscendC(options, code, kernel, err);
  if (status == 0) out << code;
  return status;
}

}  // namespace tilecraft::codegen
