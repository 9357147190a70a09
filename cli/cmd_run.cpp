// `tilecraft run FILE.tile --shape N=1000 ... --seed S`: the command line of cli/tile_run.h with the real
// build-and-run service.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/flags.h"
#include "cli/registry.h"
#include "cli/tile_run.h"
#include "runner/service.h"
#include "support/numbers.h"

namespace tilecraft::cli {
namespace {

// --show beyond this prints more than anyone reads (and the launcher's int64 would take any value).
constexpr int kMaxShow = 1000000;

int runWithService(const TileRunOptions& options) {
  runner::ServiceOptions serviceOptions;
  serviceOptions.emuInclude = TILECRAFT_EMU_INCLUDE_DIR;
  serviceOptions.sandbox = options.sandbox;
  std::unique_ptr<runner::BuildRunService> service;
  auto start = [&]() -> runner::BuildRunService* {
    service = runner::startBuildRunService(serviceOptions, std::cerr);
    return service.get();
  };
  return runTile(options, start, std::cout, std::cerr);
}

void registerRunCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "run", "Compile a Tile DSL kernel, build it against the emulator, run it and print its outputs and profile");
  auto options = std::make_shared<TileRunOptions>();
  cmd->add_option("FILE.tile", options->file, "The DSL program (one kernel)")->required();
  cmd->add_option("--param", options->params,
                  "NAME=VALUE: bind a dtype or const parameter, e.g. --param T=f32 (repeat)");
  cmd->add_option("--shape", options->shapes, "A dim: NAME=VALUE (repeatable), e.g. --shape M=100 --shape N=1000");
  cmd->add_option("--attr", options->attrs, "A scalar attribute: NAME=VALUE (repeatable); defaults apply otherwise");
  cmd->add_option("--in", options->inputs, "An input from a file: NAME=FILE.npy|FILE.bin (else generated)");
  checkSeed(cmd->add_option("--seed", options->seed, "Seed of the generated inputs")->capture_default_str());
  cmd->add_option("--out-dir", options->outDir, "Write every output as DIR/NAME.npy");
  cmd->add_option("--keep", options->keepDir, "Keep the generated .cpp, the program and the report in DIR");
  checkSeconds(cmd->add_option("--timeout", options->timeoutSeconds,
                               fmt::format("Seconds the kernel may run (at most {:g})", support::kMaxSeconds))
                   ->capture_default_str(),
               false);
  checkCount(cmd->add_option("--show", options->show, "Values printed per output")->capture_default_str(), 0, kMaxShow,
             "values");
  cmd->add_flag("!--no-profile", options->profile, "Do not simulate the run on the performance model");
  cmd->add_flag("!--no-check", options->check,
                "Do not run the reference interpreter and compare the outputs with it (timing-only runs)");
  cmd->add_option("--range", options->range, "Generated inputs uniform in [LO, HI) (integers: LO..HI), as LO,HI")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            size_t comma = value.find(',');
            char* end = nullptr;
            if (comma != std::string::npos) {
              double lo = std::strtod(value.c_str(), &end);
              bool loOk = end == value.c_str() + comma;
              double hi = std::strtod(value.c_str() + comma + 1, &end);
              bool hiOk = end == value.c_str() + value.size() && comma + 1 < value.size();
              if (loOk && hiOk && std::isfinite(lo) && std::isfinite(hi)) {
                return lo < hi ? "" : "'" + value + "': LO must be below HI (e.g. --range -2,2)";
              }
            }
            return "'" + value + "' is not LO,HI (two finite numbers, e.g. --range -2,2)";
          },
          "LO,HI"));
  cmd->add_flag("!--no-sandbox", options->sandbox,
                "Build and run without bubblewrap (same limits, no isolation: for debugging)");
  cmd->add_option("--diagnostics", options->diagnostics, "Compiler diagnostics on stderr: text | json")
      ->capture_default_str();
  cmd->callback([options] {
    int status = runWithService(*options);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("run", &registerRunCommand);

}  // namespace
}  // namespace tilecraft::cli
