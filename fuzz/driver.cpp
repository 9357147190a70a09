#include "fuzz/driver.h"

#include <fmt/format.h>

#include <ostream>

#include "fuzz/harness.h"

namespace tilecraft::fuzz {

std::string replayCommand(const FuzzProgram& program, const std::string& path) {
  std::string cmd = "tilecraft interp " + path;
  for (const auto& [name, value] : program.dims) cmd += fmt::format(" --shape {}={}", name, value);
  for (const auto& [name, value] : program.attrs) cmd += fmt::format(" --attr {}={}", name, value);
  for (const auto& [name, range] : program.ranges) cmd += fmt::format(" --range {}={}:{}", name, range.lo, range.hi);
  return cmd + fmt::format(" --seed {}", program.seed);
}

int runFuzz(const FuzzOptions& options, interp::Files& files, std::ostream& out, std::ostream& err) {
  int64_t failed = 0;
  for (int64_t i = 0; i < options.count; ++i) {
    uint64_t seed = options.seed + static_cast<uint64_t>(i);
    FuzzProgram program = generate(seed, options.mix);
    std::string name = fmt::format("fuzz_{}.tile", seed);
    std::string error;
    if (!prepareComparison(program, seed, &error)) {
      ++failed;
      err << fmt::format("seed {}: the generated program failed (a generator bug)\n{}\n{}", seed, program.source,
                         error);
      continue;
    }
    if (options.outDir.empty()) {
      out << program.source << "# replay: " << replayCommand(program, name) << "\n\n";
      continue;
    }
    std::string path = options.outDir + "/" + name;
    if (!files.write(path, program.source, &error)) {
      err << "error: " << error << "\n";
      return 2;
    }
    out << fmt::format("{} ({}): {}\n", path, label(program), replayCommand(program, path));
  }
  out << fmt::format(
      "{} program{} from seed {}: {}\n", options.count, options.count == 1 ? "" : "s", options.seed,
      failed == 0 ? "all pass the front end and run on the reference" : fmt::format("{} failed", failed));
  return failed == 0 ? 0 : 1;
}

}  // namespace tilecraft::fuzz
