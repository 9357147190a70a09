// `tilecraft run` behind its command line: compile a Tile DSL kernel to AscendC, build it through a
// build-and-run service, run it on inputs made here, compare its outputs with the reference interpreter's (the
// comparison `fuzz --emulate` makes: interp::checkOutputs), and print its outputs, the verdict and the profile.
// Emulator errors in the generated code are pointed back at the .tile line (cli/tile_locations.h).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "runner/service.h"

namespace tilecraft::cli {

struct TileRunOptions {
  std::string file;
  std::vector<std::string> shapes;  // NAME=VALUE for dims
  std::vector<std::string> attrs;   // NAME=VALUE for attributes
  std::vector<std::string> inputs;  // NAME=FILE (.bin or .npy)
  uint64_t seed = 1;
  std::string outDir;   // the outputs as NAME.npy
  std::string keepDir;  // keep the generated source, the program and the report here
  double timeoutSeconds = 120;
  int show = 8;
  bool profile = true;
  std::string diagnostics = "text";
  std::string range;  // LO,HI: the range of generated inputs
  bool sandbox = true;
  bool check = true;                     // compare the outputs with the reference interpreter's
  std::vector<std::string> params = {};  // NAME=VALUE: a dtype or const parameter (dsl/generic.h)
};

/// The build-and-run service, started once the program compiled and its arguments checked (so that those errors
/// come first); nullptr when it cannot start (the starter printed why).
using ServiceStarter = std::function<runner::BuildRunService*()>;

/// Runs `options.file` through the service: the result on `out`, diagnostics and usage errors on `err`. Exit
/// status: 0 the run passed the emulator's checks and (unless --no-check) matched the reference; 1 compile errors,
/// a build or run that failed, outputs that differ, a reference that cannot run; 2 usage, or no service.
int runTile(const TileRunOptions& options, const ServiceStarter& startService, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::cli
