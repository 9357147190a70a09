// Emulator messages about generated AscendC, pointed back at the .tile file: `tilecraft run` builds the emitted
// source and the emulator names the generated line (`/tmp/.../add.cpp:94: error: ...`); the emitter's source map
// (codegen::TileLineMap) says which DSL line that code was made from. Why a map and not `#line` directives:
// docs/compiler.md, "Source locations".
#pragma once

#include <string>
#include <vector>

#include "codegen/emitter.h"

namespace tilecraft::cli {

struct TileLocations {
  std::string generatedName;  // the generated file's name as the emulator's paths end ("add.cpp")
  std::string shownName;      // how a note names it ("add.cpp", or "kept/add.cpp" under --keep)
  std::string tileName;       // the .tile file as the user gave it
  const codegen::TileLineMap* lines = nullptr;
};

/// The emulator's error line and its notes (`PATH:N: error: ...`, `PATH:N: note: ...`) with every location in the
/// generated file moved to its .tile line; each keeps the generated line: the error as a note line after it
/// (`note: generated code: add.cpp:94`), a note in parentheses at its end. A location of code the compiler added
/// (no DSL line) keeps the generated file, without its folder. Lines about other files are left as they are.
/// `lines[0]` is the error line; the result is the error line, then the detail lines.
std::vector<std::string> pointAtTile(const std::vector<std::string>& lines, const TileLocations& where);

}  // namespace tilecraft::cli
