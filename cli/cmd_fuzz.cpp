// `tilecraft fuzz`: random valid Tile DSL programs, each checked by the front end and the reference interpreter,
// or with --emulate through the whole compiler and the emulator.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <optional>

#include "cli/flags.h"
#include "cli/registry.h"
#include "fuzz/driver.h"
#include "fuzz/emulate.h"
#include "support/numbers.h"

namespace tilecraft::cli {
namespace {

// Seeds seed .. seed + count - 1 must not wrap, and a run that long would never end anyway.
constexpr int64_t kMaxFuzzCount = 1000000000;

void registerFuzzCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "fuzz",
      "Generate random valid Tile DSL programs and check each on the reference (--emulate: also compiled, "
      "built and run on the emulator)");
  auto options = std::make_shared<fuzz::FuzzOptions>();
  checkSeed(cmd->add_option("--seed", options->seed, "First seed")->capture_default_str());
  // CLI::PositiveNumber's own message ("Value 0 not in range ...") says neither what the option is for nor what
  // to pass instead.
  cmd->add_option("--count", options->count, "How many programs (seeds seed, seed+1, ...)")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            std::optional<int64_t> n = support::parseInt64(value);
            if (!n) return "'" + value + "' is not a whole number of programs";
            if (*n < 1) return "'" + value + "' programs: the count must be at least 1 (e.g. --count 100)";
            if (*n > kMaxFuzzCount) return fmt::format("'{}' programs: at most {} per run", value, kMaxFuzzCount);
            return "";
          },
          "INT >= 1"));
  auto patterns = std::make_shared<bool>(false);
  cmd->add_flag(
      "--patterns", *patterns,
      "Only the productions modelled on programs that broke the compiler (docs/fuzzing.md, \"Compiler patterns\")");
  auto* out = cmd->add_option("--out", options->outDir, "Write fuzz_SEED.tile files here instead of printing them");
  auto emulate = std::make_shared<fuzz::EmulateOptions>();
  auto emulateOn = std::make_shared<bool>(false);
  CLI::Option* emulateFlag =
      cmd->add_flag("--emulate", *emulateOn,
                    "Compile each program to AscendC, build it against the emulator (in batches), run it and compare "
                    "with the reference")
          ->excludes(out);
  auto atLeastOne = [](const char* unit, const char* example) {
    return CLI::Validator([=](std::string& value) { return fuzz::checkAtLeastOne(value, unit, example); }, "INT >= 1");
  };
  cmd->add_option("--jobs", emulate->jobs, "--emulate: builds and runs at the same time")
      ->capture_default_str()
      ->check(atLeastOne("jobs", "--jobs 2"))
      ->needs(emulateFlag);
  cmd->add_option("--batch-size", emulate->batchSize, "--emulate: programs per build")
      ->capture_default_str()
      ->check(atLeastOne("programs per build", "--batch-size 50"))
      ->needs(emulateFlag);
  cmd->add_option("--keep", emulate->keepDir, "--emulate: keep each failing program's .tile and AscendC here")
      ->needs(emulateFlag);
  cmd->add_option("--corpus", emulate->corpusDir,
                  "--emulate: minimise failing programs and save each as DIR/KIND/fuzz_SEED.tile (KIND: "
                  "wrong-values, emulator-error, compile-error)")
      ->needs(emulateFlag);
  cmd->add_option("--minimise-failures", emulate->minimiseFailures,
                  "--emulate --corpus: how many failing programs to minimise (the first by seed)")
      ->capture_default_str()
      ->check(atLeastOne("failures to minimise", "--minimise-failures 4"))
      ->needs(emulateFlag);
  cmd->add_flag("!--no-sandbox", emulate->sandbox,
                "--emulate: build and run without bubblewrap (same limits, no isolation: for debugging)")
      ->needs(emulateFlag);
  cmd->callback([options, emulate, emulateOn, patterns] {
    options->mix = *patterns ? fuzz::Mix::Patterns : fuzz::Mix::All;
    emulate->mix = options->mix;
    if (!prepareOutputFolder("--out", options->outDir, std::cerr)) throw CLI::RuntimeError(2);
    if (!prepareOutputFolder("--keep", emulate->keepDir, std::cerr)) throw CLI::RuntimeError(2);
    if (!prepareOutputFolder("--corpus", emulate->corpusDir, std::cerr)) throw CLI::RuntimeError(2);
    int status = 0;
    if (*emulateOn) {
      emulate->seed = options->seed;
      emulate->count = options->count;
      emulate->emuInclude = emulatorIncludeDir();
      status = fuzz::runEmulate(*emulate, std::cout, std::cerr);
    } else {
      interp::DiskFiles files;
      status = fuzz::runFuzz(*options, files, std::cout, std::cerr);
    }
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("fuzz", &registerFuzzCommand);

}  // namespace
}  // namespace tilecraft::cli
