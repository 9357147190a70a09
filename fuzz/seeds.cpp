#include "fuzz/seeds.h"

#include "support/files.h"

namespace tilecraft::fuzz {

std::vector<SeedProgram> loadSeedPrograms(const std::filesystem::path& root) {
  std::vector<SeedProgram> programs;
  for (const char* folder : {"examples", "solutions"}) {
    for (const std::filesystem::path& path : support::listFilesRecursively(root / folder, ".tile")) {
      std::optional<std::string> text = support::readFile(path);
      if (text) programs.push_back({path.lexically_relative(root).generic_string(), std::move(*text)});
    }
  }
  return programs;
}

}  // namespace tilecraft::fuzz
