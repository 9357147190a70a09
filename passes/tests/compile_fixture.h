// Front end + lowering of a DSL snippet for pass tests: the IR exactly as `tilecraft compile` would make it.
#pragma once

#include <string>

#include "dsl/lexer.h"
#include "dsl/parser.h"
#include "dsl/sema.h"
#include "ir/ir.h"
#include "passes/lower.h"
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

}  // namespace tilecraft::passes::testing
