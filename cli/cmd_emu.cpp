// `tilecraft emu ...`: the AscendC emulator's commands.
#include <cstdlib>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/emu_run.h"
#include "cli/flags.h"
#include "cli/registry.h"

namespace tilecraft::cli {
namespace {

void registerEmuCommands(CLI::App& app) {
  CLI::App* emu = app.add_subcommand("emu", "Run AscendC kernels on the CPU emulator");
  emu->require_subcommand(1);
  CLI::App* run = emu->add_subcommand("run", "Build kernel files against the emulator, run them, report the checks");
  auto options = std::make_shared<EmuRunOptions>();
  options->includeDir = emulatorIncludeDir();
  addEmuRunOptions(*run, *options);
  run->callback([options] {
    int status = runEmuFiles(*options, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("emu", &registerEmuCommands);

}  // namespace
}  // namespace tilecraft::cli
