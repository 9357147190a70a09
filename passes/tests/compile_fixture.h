// Front end + lowering of a DSL snippet for pass tests: the IR exactly as `tilecraft compile` would make it.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dsl/lexer.h"
#include "dsl/parser.h"
#include "dsl/sema.h"
#include "ir/ir.h"
#include "ir/printer.h"
#include "passes/lower.h"
#include "passes/pipeline.h"
#include "support/diagnostic.h"
#include "support/source.h"

namespace tilecraft::passes::testing {

struct Compiled {
  support::SourceManager sources;
  support::DiagnosticEngine diagnostics;
  ir::Module module;
  std::string errors() const { return support::renderText(sources, diagnostics.diagnostics()); }
};

inline void compileInto(Compiled& c, const std::string& name, const std::string& text) {
  support::FileId file = c.sources.addBuffer(name, text);
  auto tokens = dsl::lex(c.sources, file, c.diagnostics);
  dsl::Ast ast = dsl::parse(tokens, c.diagnostics);
  if (c.diagnostics.hasErrors()) return;
  dsl::SemaResult sema = dsl::check(c.sources, ast, c.diagnostics);
  if (c.diagnostics.hasErrors()) return;
  c.module = lower(ast, sema, c.sources, c.diagnostics);
}

/// The snippet's IR after `pass`, the verifier run after each pass; a diagnostic or a verifier error fails the test.
inline std::string irAfter(const std::string& source, const std::string& pass) {
  Compiled c;
  compileInto(c, "t.tile", source);
  EXPECT_FALSE(c.diagnostics.hasErrors()) << c.errors();
  PipelineOptions options;
  options.stopAfter = pass;
  std::vector<std::string> verifierErrors;
  EXPECT_TRUE(runPipeline(c.module, options, c.diagnostics, &verifierErrors)) << c.errors();
  EXPECT_TRUE(verifierErrors.empty()) << verifierErrors.front();
  return ir::printModule(c.module);
}

}  // namespace tilecraft::passes::testing
