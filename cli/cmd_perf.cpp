// `tilecraft perf ...`: the performance model's commands.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/registry.h"
#include "perf/command.h"

namespace tilecraft::cli {
namespace {

void registerPerfCommands(CLI::App& app) {
  CLI::App* perf = app.add_subcommand("perf", "Performance model: hardware limit, eager baseline, calibration");
  perf->require_subcommand(1);

  CLI::App* calibrate = perf->add_subcommand(
      "calibrate", "Run the limit and eager models over a CANN Bench cases CSV and compare with its measured figures");
  auto options = std::make_shared<perf::CalibrateOptions>();
  calibrate->add_option("FILE.csv", options->csv,
                        "Cases CSV (default: $TILECRAFT_SHARED/calibration/cann_bench_910b2_public.csv, "
                        "else the repository's data/calibration/)");
  calibrate->add_flag("--json", options->json, "Print one JSON object instead of the text report");
  calibrate->add_option("--arch", options->arch, "Architecture spec in configs/arch/ (default 910b2)");
  calibrate->callback([options] {
    int status = perf::runCalibrate(*options, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });
  // `perf simulate` is registered by cli/cmd_perf_simulate.cpp.
}

const CommandRegistration kRegistration("perf", &registerPerfCommands);

}  // namespace
}  // namespace tilecraft::cli
