// `tilecraft interp FILE.tile ...`: the reference interpreter of the Tile DSL.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/flags.h"
#include "cli/registry.h"
#include "interp/driver.h"

namespace tilecraft::cli {
namespace {

void registerInterpCommand(CLI::App& app) {
  CLI::App* cmd =
      app.add_subcommand("interp", "Run a Tile DSL kernel on the reference interpreter; write outputs as .npy");
  auto options = std::make_shared<interp::InterpOptions>();
  cmd->add_option("FILE.tile", options->file, "The DSL program")->required();
  cmd->add_option("--kernel", options->kernel, "The kernel to run (default: the file's only kernel)");
  cmd->add_option("--param", options->params,
                  "NAME=VALUE: bind a dtype or const parameter, e.g. --param T=f32 (repeat)");
  cmd->add_option("--shape", options->shapes, "NAME=VALUE for each dim(), e.g. --shape N=1000 (repeat)");
  cmd->add_option("--attr", options->attrs, "NAME=VALUE for a scalar attribute (default: its default value)");
  cmd->add_option("--input", options->inputs, "NAME=FILE.npy: use this input instead of a generated one");
  cmd->add_option("--range", options->ranges, "NAME=LO:HI: the range of a generated input (default -1:1 for floats)");
  checkSeed(
      cmd->add_option("--seed", options->seed, "Seed of the generated inputs (SplitMix64)")->capture_default_str());
  cmd->add_option("--out", options->outDir, "Directory to write NAME.npy for each output");
  cmd->add_flag("--save-inputs", options->saveInputs, "Also write the inputs to --out, as NAME.in.npy");
  cmd->callback([options] {
    if (!prepareOutputFolder("--out", options->outDir, std::cerr)) throw CLI::RuntimeError(2);
    interp::DiskFiles files;
    int status = interp::runInterp(*options, files, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("interp", &registerInterpCommand);

}  // namespace
}  // namespace tilecraft::cli
