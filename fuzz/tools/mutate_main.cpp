// `tilecraft_mutate`: the mutation fuzzer of docs/fuzzing.md, run by ctest as fuzz.mutate.
//   tilecraft_mutate --tilecraft build/cli/tilecraft --root . --count 300 --seed 1 [--kinds all] [--jobs 2]
//   tilecraft_mutate --replay SEED [--kinds ...]     one mutant through every stage, printed
//   tilecraft_mutate --corpus fuzz/corpus/regressions  the committed reproducers through every stage
#include <cstdint>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>

#include "fuzz/mutate_campaign.h"

int main(int argc, char** argv) {
  using namespace tilecraft;
  CLI::App app{
      "Mutants of the examples and solutions through `tilecraft`: exit status 0, 1 or 2 only, no signal, "
      "no hang, no internal error (docs/fuzzing.md)",
      "tilecraft_mutate"};
  fuzz::MutateOptions options;
  std::string kinds = "all", workDir = options.workDir.string(), root = ".";
  std::optional<uint64_t> replay;
  std::string corpus;
  app.add_option("--tilecraft", options.tilecraft, "The command under test")->capture_default_str();
  app.add_option("--root", root, "The repository (its examples/ and solutions/ are the seeds)")->capture_default_str();
  app.add_option("--seed", options.seed, "First mutant's seed")
      ->capture_default_str()
      ->envname("TILECRAFT_MUTATE_SEED");
  app.add_option("--count", options.count, "How many mutants (seeds seed, seed+1, ...)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{100000000}))
      ->envname("TILECRAFT_MUTATE_COUNT");
  app.add_option("--kinds", kinds,
                 "all, or a comma-separated list of: " + fuzz::mutationKindList(fuzz::allMutationKinds()))
      ->capture_default_str()
      ->envname("TILECRAFT_MUTATE_KINDS");
  app.add_option("--sample-every", options.sampleEvery,
                 "Every Nth mutant also through --emit=ascendc, interp and JSON diagnostics (0: none)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--timeout", options.timeoutSeconds, "Seconds per run before it counts as a hang")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  app.add_option("--jobs", options.jobs, "Runs at the same time")->capture_default_str()->check(CLI::Range(1, 64));
  app.add_option("--minimise-runs", options.minimiseRuns, "Runs the minimiser may spend per failure (0: none)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--minimise-failures", options.minimiseFailures,
                 "How many failing mutants to minimise; the later ones are written as found")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--work", workDir, "Folder for the mutants and failures/ (the reproducers)")->capture_default_str();
  app.add_option("--replay", replay, "Run mutant SEED alone through every stage and print it");
  app.add_option("--corpus", corpus, "Run every .tile file under this folder through every stage");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;  // every usage error is 2, as for `tilecraft`
  }
  std::string error;
  auto parsed = fuzz::parseMutationKinds(kinds, &error);
  if (!parsed) {
    std::cerr << "error: --kinds: " << error << "\n";
    return 2;
  }
  options.kinds = *parsed;
  options.workDir = workDir;
  options.root = root;
  support::SystemProcessRunner runner;
  if (replay) return fuzz::replayMutant(options, *replay, runner, std::cout, std::cerr);
  if (!corpus.empty()) return fuzz::runCorpus(options, corpus, runner, std::cout, std::cerr);
  return fuzz::runMutate(options, runner, std::cout, std::cerr);
}
