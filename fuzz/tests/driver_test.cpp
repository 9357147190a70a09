#include <gtest/gtest.h>

#include <sstream>

#include <fmt/format.h>

#include "fuzz/driver.h"
#include "interp/driver.h"

namespace tilecraft::fuzz {
namespace {

TEST(FuzzDriver, WritesProgramsWithTheirReplayCommand) {
  interp::MemoryFiles files;
  std::ostringstream out, err;
  FuzzOptions o;
  o.seed = 5;
  o.count = 3;
  o.outDir = "f";
  ASSERT_EQ(runFuzz(o, files, out, err), 0) << err.str();
  EXPECT_EQ(files.files.size(), 3u);
  EXPECT_EQ(files.files["f/fuzz_6.tile"], generate(6).source);
  EXPECT_NE(out.str().find("f/fuzz_5.tile (" + label(generate(5)) +
                           "): " + replayCommand(generate(5), "f/fuzz_5.tile") + "\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("3 programs from seed 5: all pass the front end and run on the reference\n"),
            std::string::npos);
}

TEST(FuzzDriver, TheReplayCommandRunsTheProgramOnTheInterpreter) {
  // The first integer program with an i32 attribute.
  FuzzProgram p;
  for (uint64_t seed = 1; p.family != "integer" || !p.attrs.count("k0"); ++seed) p = generate(seed);
  std::string cmd = replayCommand(p, "f.tile");
  EXPECT_EQ(cmd.rfind("tilecraft interp f.tile --shape N=", 0), 0u) << cmd;
  EXPECT_NE(cmd.find(fmt::format(" --attr k0={} ", p.attrs.at("k0"))), std::string::npos) << cmd;
  EXPECT_NE(cmd.find(fmt::format(" --seed {}", p.seed)), std::string::npos) << cmd;
  // The same run through the interp driver, with the replay's arguments.
  interp::MemoryFiles files;
  files.files["f.tile"] = p.source;
  interp::InterpOptions o;
  o.file = "f.tile";
  o.seed = p.seed;
  for (const auto& [name, v] : p.dims) o.shapes.push_back(name + "=" + std::to_string(v));
  for (const auto& [name, v] : p.attrs) o.attrs.push_back(fmt::format("{}={}", name, v));  // as the replay writes it
  for (const auto& [name, r] : p.ranges)
    o.ranges.push_back(name + "=" + std::to_string(r.lo) + ":" + std::to_string(r.hi));
  std::ostringstream out, err;
  EXPECT_EQ(interp::runInterp(o, files, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("output y "), std::string::npos);
}

TEST(FuzzDriver, PrintsProgramsWhenThereIsNoOutputDirectory) {
  interp::MemoryFiles files;
  std::ostringstream out, err;
  FuzzOptions o;
  o.seed = 9;
  ASSERT_EQ(runFuzz(o, files, out, err), 0) << err.str();
  EXPECT_EQ(out.str(), generate(9).source + "# replay: " + replayCommand(generate(9), "fuzz_9.tile") +
                           "\n\n1 program from seed 9: all pass the front end and run on the reference\n");
  EXPECT_TRUE(files.files.empty());
}

}  // namespace
}  // namespace tilecraft::fuzz
