// The programs every robustness fuzzer starts from: the examples (examples/**/*.tile) and the tasks' expert
// solutions (solutions/**/*.tile), in one sorted order so that a seed names the same mutant on every machine.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tilecraft::fuzz {

struct SeedProgram {
  std::string name;  // the path relative to the repository, e.g. "examples/elementwise/add.tile"
  std::string text;
};

/// The .tile files under `root`/examples and `root`/solutions, sorted by name; empty when neither exists.
std::vector<SeedProgram> loadSeedPrograms(const std::filesystem::path& root);

}  // namespace tilecraft::fuzz
