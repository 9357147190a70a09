#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "fuzz/harness.h"

namespace tilecraft::fuzz {
namespace {

TEST(Fuzz, TheSameSeedGivesTheSameProgram) {
  EXPECT_EQ(generate(7).source, generate(7).source);
  EXPECT_EQ(generate(7).dims, generate(7).dims);
  EXPECT_NE(generate(7).source, generate(8).source);
}

// The acceptance check: seeds 1..1000 all pass the front end with no diagnostic at all and run on the
// reference, with finite outputs (the generator keeps its chains bounded).
TEST(Fuzz, AThousandProgramsPassTheFrontEndAndRunOnTheReference) {
  std::map<std::string, int> families;
  std::string all;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    FuzzProgram program = generate(seed);
    std::string error;
    auto c = prepareComparison(program, seed, &error);
    ASSERT_TRUE(c.has_value()) << "seed " << seed << ":\n" << program.source << "\n" << error;
    ASSERT_FALSE(c->oracle.expected.empty()) << program.source;
    for (const auto& [name, tensor] : c->oracle.expected) {
      for (double v : tensor.data)
        ASSERT_TRUE(std::isfinite(v)) << "seed " << seed << " output " << name << "\n" << program.source;
      EXPECT_TRUE(c->oracle.tolerances.count(name));
    }
    ++families[program.family];
    all += program.source;
  }
  for (const char* family : {"elementwise", "integer", "rows", "columns"}) EXPECT_GE(families[family], 100) << family;
  // Every construct the generator knows appears somewhere in the thousand.
  for (const char* construct : {"exp(",
                                "log(",
                                "sqrt(",
                                "rsqrt(",
                                "reciprocal(",
                                "tanh(",
                                "sigmoid(",
                                "gelu(",
                                "silu(",
                                "sin(",
                                "cos(",
                                "erf(",
                                "abs(",
                                "relu(",
                                "maximum(",
                                "minimum(",
                                "pow(",
                                "** 2",
                                "leaky_relu(",
                                "clamp(",
                                "where(",
                                "reduce_sum(",
                                "reduce_mean(",
                                "reduce_max(",
                                "reduce_min(",
                                "cumsum(",
                                "cumprod(",
                                "cast(",
                                ", i32), f32)",
                                ", f16), f32)",
                                ", bf16), f32)",
                                ", i16), f16)",
                                "axis=0",
                                "axis=-1",
                                "buffers=1",
                                "load(b0[0:1, :])",
                                "load(b0[0:1, c])",
                                "store(s[r, :]",
                                ": f32 = ",
                                "k0: i32",
                                "Tensor[bf16",
                                "Tensor[i16",
                                "Tensor[i32",
                                "Tensor[f16"}) {
    EXPECT_NE(all.find(construct), std::string::npos) << construct;
  }
}

// The constructs the emitter once got wrong are generated, for f16 compute too: reductions and scans in f16
// (F3), float -> integer round trips (F2). `fuzz --emulate` runs these same programs through the emulator.
TEST(Fuzz, ProgramsCoverF16ReductionsAndIntegerRoundTrips) {
  int f16Reductions = 0;
  std::string all;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    FuzzProgram program = generate(seed);
    all += program.source;
    bool f16 = program.source.find("Tensor[f16") != std::string::npos &&
               program.source.find("cast(v0, f32)") == std::string::npos;
    if (!f16) continue;
    for (const char* op : {"reduce_sum(", "reduce_mean(", "cumsum("}) {
      f16Reductions += program.source.find(op) != std::string::npos;
    }
  }
  EXPECT_GT(f16Reductions, 0);
  EXPECT_NE(all.find(", i32), f32)"), std::string::npos);
  EXPECT_NE(all.find(", i16), f16)"), std::string::npos);
}

}  // namespace
}  // namespace tilecraft::fuzz
