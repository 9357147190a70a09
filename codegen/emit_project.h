// `tilecraft compile FILE.tile --emit=project -o DIR`: the kernel as a CANN custom-operator project in the
// layout msopgen creates, for the operator type <Name>Custom: op_host/NAME_custom.cpp (the OpDef, the tiling
// function, shape and dtype inference), op_host/NAME_custom_tiling.h (the tiling data definition),
// op_kernel/NAME_custom.cpp (the kernel class of --emit=ascendc with a GET_TILING_DATA entry), msopgen's operator
// description NAME_custom.json, build.sh and README.md. The kernel class, the tiling struct's fields and the host
// tiling arithmetic come from the AscendC emitter's own parts, so the two outputs cannot drift apart.
// Deterministic: no timestamps, no absolute paths.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "codegen/emitter.h"
#include "ir/ir.h"
#include "support/diagnostic.h"

namespace tilecraft::codegen {

struct ProjectFile {
  std::string path;  // relative to the project folder, '/'-separated
  std::string text;
  bool executable = false;
};

/// The project's files for `kernel`, in a fixed order. IR the emitter cannot express is reported as an error
/// diagnostic at the DSL construct; the result is then empty.
std::vector<ProjectFile> emitProject(const ir::Kernel& kernel, const EmitOptions& options,
                                     support::DiagnosticEngine& diagnostics);

struct ProjectOptions {
  std::string file;
  std::string diagnostics = "text";      // text | json
  std::string outDir;                    // -o DIR
  bool force = false;                    // --force: write into a folder that is not empty
  std::vector<std::string> params = {};  // --param NAME=VALUE: the instantiation of a generic program
};

/// -o and --force belong to --emit=project: with another `emit` they are a usage error (status 2, message on
/// `err`).
int checkProjectFlags(const std::string& emit, const ProjectOptions& options, std::ostream& err);

/// `tilecraft compile FILE --emit=project -o DIR [--force]`: writes the project, one summary line on `out`.
/// Exit status: 0 written; 1 errors in the program (nothing written) or a file that could not be written;
/// 2 usage (no -o, DIR not empty without --force, DIR a file, unreadable FILE).
int runCompileProject(const ProjectOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::codegen
