// Runs the front end on an in-memory program, for unit tests.
#pragma once

#include <string>
#include <vector>

#include "dsl/ast.h"
#include "dsl/lexer.h"
#include "dsl/parser.h"
#include "dsl/sema.h"
#include "support/diagnostic.h"
#include "support/source.h"

namespace tilecraft::dsl::testing {

struct Frontend {
  support::SourceManager sources;
  support::DiagnosticEngine diagnostics;
  support::FileId file = support::kNoFile;
  std::vector<Token> tokens;
  Ast ast;
  SemaResult sema;

  explicit Frontend(const std::string& text, bool runSema = true) {
    file = sources.addBuffer("t.tile", text);
    tokens = lex(sources, file, diagnostics);
    ast = parse(tokens, diagnostics);
    if (runSema && !diagnostics.hasErrors()) sema = check(sources, ast, diagnostics);
  }
  std::string text() const { return support::renderText(sources, diagnostics.diagnostics()); }
  /// Messages only, one per line, in report order.
  std::string messages() const {
    std::string out;
    for (const auto& d : diagnostics.diagnostics()) out += d.message + "\n";
    return out;
  }
  /// The first node of `kind` whose name is `name` (or any name when empty).
  NodeId find(NodeKind kind, const std::string& name = {}) const {
    for (NodeId id = 0; id < ast.size(); ++id) {
      if (ast.kind(id) == kind && (name.empty() || ast.node(id).name == name)) return id;
    }
    return kNoNode;
  }
};

}  // namespace tilecraft::dsl::testing
