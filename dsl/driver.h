// The front end every `tilecraft compile` stage shares (read, lex, parse, check, render the diagnostics), and
// `tilecraft compile --emit=tokens|ast` on top of it; testable without a process.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "dsl/ast.h"
#include "dsl/generic.h"
#include "dsl/sema.h"
#include "dsl/token.h"
#include "support/diagnostic.h"
#include "support/source.h"

namespace tilecraft::dsl {

/// One file after the front end. A back end continues from here and reports into `diagnostics`.
struct Program {
  std::string path;  // as given on the command line
  support::SourceManager sources;
  support::FileId file = support::kNoFile;
  support::DiagnosticEngine diagnostics;
  std::vector<Token> tokens;
  Ast ast;                           // empty with FrontEndOptions::lexOnly; the instantiated program otherwise
  SemaResult sema;                   // empty with FrontEndOptions::lexOnly
  std::vector<GenericParam> params;  // the module's dtype and const parameters (dsl/generic.h)
  Instantiation instantiation;       // the values `ast` was instantiated with; empty without parameters
};

struct FrontEndOptions {
  std::string file;
  std::string diagnostics = "text";      // text | json
  bool lexOnly = false;                  // --emit=tokens needs only the lexer
  std::vector<std::string> params = {};  // --param NAME=VALUE: binds dtype and const parameters
  /// A program whose parameters are not all bound: false, a usage error (exit 2) naming them; true, the back end
  /// runs once per instantiation (tilecraft compile checks them all).
  bool everyInstantiation = false;
};

/// Runs on a program the front end accepted; returns internal errors (compiler bugs, e.g. an IR verifier
/// failure), which are printed after the diagnostics as `internal compiler error: ...`.
using BackEnd = std::function<std::vector<std::string>(Program&)>;

/// 0 for a --diagnostics value of text or json; otherwise the usage error on `err` and 2.
int checkDiagnosticsFormat(const std::string& format, std::ostream& err);

/// Reads `options.file`, lexes and parses it, instantiates it (dsl/generic.h) and checks each instantiation if it
/// parsed cleanly (so errors never cascade), then runs `backEnd` on each one without errors, and renders every
/// diagnostic on `err` (text with a summary line, or json); a diagnostic of a generic program has the note
/// `in the instantiation T=bf16`. Exit status: 0 success; 1 errors in the program or internal errors; 2 a bad
/// --diagnostics or --param value, parameters left unbound without `everyInstantiation`, or an unreadable file.
/// The back end keeps its output; callers print it only on 0.
int compileFile(const FrontEndOptions& options, const BackEnd& backEnd, std::ostream& err);

struct CompileOptions {
  std::string file;
  std::string emit = "ast";  // tokens | ast (ir: passes/driver.h, ascendc: codegen/driver.h, project: emit_project.h)
  std::string diagnostics = "text";      // text | json
  std::vector<std::string> params = {};  // --param NAME=VALUE
  /// With --emit=ast: the stages after the front end, run on the accepted program before it is called fine
  /// (codegen::checkWholePipeline, which this library cannot name); empty: none.
  BackEnd wholePipeline;
};

/// `--emit=tokens|ast`. Exit status: 0 success, 1 the program has errors, 2 bad usage (including a stage another
/// driver owns: ir, ir-after=PASS, ascendc, project) or unreadable file. The emitted text goes to `out`; diagnostics go to `err`.
int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::dsl
