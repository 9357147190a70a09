// libFuzzer target: source text through the whole front end (lex, parse, check), the lowering and the pass
// pipeline with the IR verifier on, and both diagnostic renderers. Any crash, sanitizer report, TC_ASSERT or
// verifier failure is a finding (docs/fuzzing.md); diagnostics are the expected outcome for most inputs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

#include "dsl/lexer.h"
#include "dsl/parser.h"
#include "dsl/sema.h"
#include "passes/lower.h"
#include "passes/pipeline.h"
#include "support/diagnostic.h"
#include "support/source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilecraft;
  support::SourceManager sources;
  support::DiagnosticEngine diagnostics;
  support::FileId file = sources.addBuffer("fuzz.tile", std::string(reinterpret_cast<const char*>(data), size));
  std::vector<dsl::Token> tokens = dsl::lex(sources, file, diagnostics);
  dsl::Ast ast = dsl::parse(tokens, diagnostics);
  if (!diagnostics.hasErrors()) {
    dsl::SemaResult sema = dsl::check(sources, ast, diagnostics);
    if (!diagnostics.hasErrors()) {
      ir::Module module = passes::lower(ast, sema, sources, diagnostics);
      if (!diagnostics.hasErrors()) {
        std::vector<std::string> verifierErrors;
        passes::runPipeline(module, {}, diagnostics, &verifierErrors);
        if (!verifierErrors.empty()) {
          // A program the checker accepted that the pipeline breaks is a compiler bug.
          std::fprintf(stderr, "IR verifier: %s\n", verifierErrors.front().c_str());
          std::abort();
        }
      }
    }
  }
  // Both renderers quote source lines and names back: they see every odd byte the lexer let through.
  support::renderText(sources, diagnostics.diagnostics());
  support::renderJson(sources, diagnostics.diagnostics());
  return 0;
}
