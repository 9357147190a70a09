// `tilecraft perf simulate`: the timeline simulator on an emulator trace. Joins the `perf` command that
// cli/cmd_perf.cpp creates; registrations run sorted by name, so "perf" exists before "perf simulate".
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/registry.h"
#include "perf/timeline_command.h"

namespace tilecraft::cli {
namespace {

void registerPerfSimulate(CLI::App& app) {
  CLI::App* perf = app.get_subcommand("perf");
  CLI::App* simulate = perf->add_subcommand(
      "simulate", "Replay an emulator instruction trace (TILECRAFT_EMU_TRACE) on the arch spec and print the profile");
  auto options = std::make_shared<perf::SimulateOptions>();
  simulate->add_option("TRACE", options->trace, "Trace file written by the emulator (JSON lines)")->required();
  simulate->add_option("--arch", options->arch, "Architecture spec in configs/arch/ (default 910b2)");
  simulate->add_option("--chrome-trace", options->chromeTrace,
                       "Write the timeline as Chrome-trace JSON (open it in https://ui.perfetto.dev)");
  simulate->add_flag("--json", options->json, "Print the profile as one JSON object");
  simulate->add_flag("--l2-bypass", options->l2BypassReads,
                     "The kernel reads GM through the L2-bypass alias (invisible to the emulator)");
  simulate->callback([options] {
    int status = perf::runSimulate(*options, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("perf simulate", &registerPerfSimulate);

}  // namespace
}  // namespace tilecraft::cli
