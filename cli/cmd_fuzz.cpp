// `tilecraft fuzz`: random valid Tile DSL programs, each checked by the front end and the reference interpreter.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/registry.h"
#include "fuzz/driver.h"

namespace tilecraft::cli {
namespace {

void registerFuzzCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("fuzz", "Generate random valid Tile DSL programs and check each on the reference");
  auto options = std::make_shared<fuzz::FuzzOptions>();
  cmd->add_option("--seed", options->seed, "First seed")->capture_default_str();
  cmd->add_option("--count", options->count, "How many programs (seeds seed, seed+1, ...)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", options->outDir, "Write fuzz_SEED.tile files here instead of printing them");
  cmd->callback([options] {
    interp::DiskFiles files;
    int status = fuzz::runFuzz(*options, files, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("fuzz", &registerFuzzCommand);

}  // namespace
}  // namespace tilecraft::cli
