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
  EXPECT_EQ(generate(7, Mix::Patterns).source, generate(7, Mix::Patterns).source);
  EXPECT_NE(generate(7, Mix::Patterns).source, generate(7).source);
}

// Every program of both mixes passes the front end with no diagnostic and runs on the reference with finite
// outputs; returns the families and patterns seen, and all the sources.
void checkSeeds(Mix mix, uint64_t last, std::map<std::string, int>& families, std::map<std::string, int>& patterns,
                std::string& all) {
  for (uint64_t seed = 1; seed <= last; ++seed) {
    FuzzProgram program = generate(seed, mix);
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
    for (const std::string& p : program.patterns) ++patterns[p];
    all += program.source;
  }
}

// The patterns that broke the compiler (issue 10): each is produced, by both mixes, and the programs pass the
// checker; the patterns mix has no integer programs (its float programs carry the `**` scalars).
TEST(Fuzz, BothMixesProduceEveryPatternAndPassTheChecker) {
  std::map<std::string, int> families, patterns;
  std::string all;
  checkSeeds(Mix::Patterns, 400, families, patterns, all);
  for (const char* family : {"chunks", "gather", "bigrows", "colstore"}) EXPECT_GE(families[family], 50) << family;
  EXPECT_EQ(families.count("integer"), 0u);
  EXPECT_GE(families["elementwise"] + families["rows"] + families["columns"], 50);
  for (const char* pattern : {"chunk-past-end", "compute-index-gather", "buffers1-multi-compute", "near-capacity",
                              "mixed-dtypes", "compute-before-loop", "store-col-into-1d", "store-row-into-1d",
                              "load-1d-as-row", "reassigned-store", "pow-scalar", "reassigned-scalar"}) {
    EXPECT_GE(patterns[pattern], 10) << pattern;
  }
  for (const char* construct :
       {"for k in range(0, cdiv(N, C)):", "k*C : k*C + C", "for o in range(0, N, C):", "r, o : o + C",
        "ids = cast(i0, i32)", "ids = minimum(relu(", "rows = load(w[ids, :])", "Tensor[i64, (L,)]",
        "buffers=1):", "N = dim(max=8192)", "gf = cast(g0, f32)", "store(h[r, :]", "store(z[r], ", "store(z[c], ",
        "load(b0[:])", "load(b0[c])", "s0 = s0 * 0.5", " ** 1.5\n", "x1: Tensor[f32, (M, N)]"}) {
    EXPECT_NE(all.find(construct), std::string::npos) << construct;
  }
  families.clear();
  patterns.clear();
  checkSeeds(Mix::All, 1000, families, patterns, all);
  for (const char* family : {"chunks", "gather", "bigrows", "colstore"}) EXPECT_GE(families[family], 40) << family;
}

// The acceptance check: seeds 1..1000 all pass the front end with no diagnostic at all and run on the
// reference, with finite outputs (the generator keeps its chains bounded).
TEST(Fuzz, AThousandProgramsPassTheFrontEndAndRunOnTheReference) {
  std::map<std::string, int> families, patterns;
  std::string all;
  checkSeeds(Mix::All, 1000, families, patterns, all);
  for (const char* family : {"elementwise", "integer", "rows", "columns"}) EXPECT_GE(families[family], 90) << family;
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
