// The legalize pass (legalize.cpp): which vector ops on multi-row tiles become one instruction over the tile's
// contiguous rows (printed "flat"), which reductions of short rows one repeated WholeReduce ("repeat"), which
// Compares and Selects run over whole repeats ("padded"), which ops read a per-row column spread across its blocks
// ("column", "column-flat"), which ops on row statistics run on every row's first lane ("first-lanes"), and the
// verifier's checks of those decisions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/pipeline.h"
#include "passes/tests/compile_fixture.h"

namespace tilecraft::passes {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

void legalized(testing::Compiled& c, const std::string& source) {
  testing::compileInto(c, "t.tile", source);
  ASSERT_FALSE(c.diagnostics.hasErrors()) << c.errors();
  PipelineOptions options;
  options.stopAfter = "legalize";
  std::vector<std::string> verifierErrors;
  ASSERT_TRUE(runPipeline(c.module, options, c.diagnostics, &verifierErrors)) << c.errors();
  ASSERT_THAT(verifierErrors, ElementsAre());
}

// The printed line of the op writing `%name`, without its "# line" column.
std::string opLine(const std::string& ir, const std::string& name) {
  std::istringstream in(ir);
  for (std::string line; std::getline(in, line);) {
    size_t begin = line.find_first_not_of(' ');
    if (begin == std::string::npos || line.compare(begin, name.size() + 4, "%" + name + " = ") != 0) continue;
    std::string s = line.substr(begin, line.find("  #") - begin);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }
  return "";
}

bool flat(const std::string& line) { return line.size() > 5 && line.compare(line.size() - 5, 5, " flat") == 0; }

constexpr const char* kRows = R"(M = dim()
N = dim(max=256)

@kernel
def k(x: Tensor[f32, (M, N)], h: Tensor[f16, (M, N)], y: Tensor[f32, (M, N)], z: Tensor[f32, (M, N)],
      w: Tensor[f32, (M, N)]):
    rows = split(M, cores=vector_cores())
    for r in tiles(rows, size=8):
        with copyin:
            v = load(x[r, :])
            g = load(h[r, :])
        with compute:
            s = exp(v * 2.0) + v
            d = cumsum(v, axis=-1)
            e = d * d
            c = cast(g, f32)
        with copyout:
            store(y[r, :], s)
            store(z[r, :], e)
            store(w[r, :], c)
)";

TEST(Legalize, ElementwiseOpsOnPaddedRowsOfLoadedTilesAreOneInstruction) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kRows));
  std::string ir = ir::printModule(c.module);
  // N is a dim: rows are padded to 8 floats, and the load pads each of them, so v's padding is written.
  EXPECT_TRUE(flat(opLine(ir, "s"))) << ir;
  EXPECT_THAT(ir, HasSubstr("%0 = muls %v, 2.0 flat"));
}

TEST(Legalize, OpsReadingRowByRowResultsOrMixedPitchesStayPerRow) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kRows));
  std::string ir = ir::printModule(c.module);
  // A row scan is written row by row and leaves its padding unwritten: e reads d and may not be flat either.
  EXPECT_FALSE(flat(opLine(ir, "d"))) << ir;
  EXPECT_FALSE(flat(opLine(ir, "e"))) << ir;
  // f16 rows pad to 16 elements, f32 rows to 8: the cast's operands have different pitches.
  EXPECT_FALSE(flat(opLine(ir, "c"))) << ir;
  EXPECT_NE(opLine(ir, "c"), "");
}

TEST(Legalize, TilesAlongTheRowStayPerRow) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, R"(M = dim()
N = dim()

@kernel
def k(x: Tensor[f32, (M, N)], y: Tensor[f32, (M, N)]):
    rows = split(M, cores=vector_cores())
    for r in tiles(rows, size=8):
        for t in tiles(N, size=100):
            with copyin:
                v = load(x[r, t])
            with compute:
                s = v * 2.0
            with copyout:
                store(y[r, t], s)
)"));
  std::string ir = ir::printModule(c.module);
  // A tile loop's extent has the pitch of its size; its last tile is shorter, so the rows are not contiguous.
  EXPECT_FALSE(flat(opLine(ir, "s"))) << ir;
  EXPECT_NE(opLine(ir, "s"), "");
}

TEST(Legalize, VerifierRefusesAFlatOpWhoseSourcePaddingIsUnwritten) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kRows));
  ir::Kernel& k = c.module.kernels.at(0);
  bool marked = false;
  for (ir::Node& n : k.nodes) {
    if (n.kind == ir::NodeKind::Binary && n.op == ir::Op::Mul && n.dst != ir::kNone && k.buffer(n.dst).name == "e") {
      n.form = ir::VecForm::Flat;
      marked = true;
    }
  }
  ASSERT_TRUE(marked);
  std::vector<std::string> errors = ir::verify(k);
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("is flat, but Scan #"));
  EXPECT_THAT(errors[0], HasSubstr("leaves the row padding of %d unwritten"));
}

TEST(Legalize, VerifierRefusesAFlatOpOverOperandsOfDifferentPitches) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kRows));
  ir::Kernel& k = c.module.kernels.at(0);
  for (ir::Node& n : k.nodes) {
    if (n.kind == ir::NodeKind::Cast) n.form = ir::VecForm::Flat;
  }
  std::vector<std::string> errors = ir::verify(k);
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("Cast #"));
  EXPECT_THAT(
      errors[0],
      HasSubstr("is flat, but its operands do not share one multi-row layout (shape, row pitch, inner extent)"));
}

constexpr const char* kShortRows = R"(M = dim()
N = dim(max=64)
L = dim(max=65)

@kernel
def k(x: Tensor[f32, (M, N)], h: Tensor[f16, (M, N)], w: Tensor[f32, (M, L)], a: Tensor[f32, (M, 1)],
      b: Tensor[f16, (M, 1)], c: Tensor[f16, (M, 1)], d: Tensor[f32, (M, 1)]):
    rows = split(M, cores=vector_cores())
    for r in tiles(rows, size=16):
        with copyin:
            v = load(x[r, :])
            g = load(h[r, :])
            u = load(w[r, :])
        with compute:
            s = reduce_mean(v, axis=-1)
            m = reduce_max(g, axis=-1)
            t = reduce_sum(g, axis=-1)
            o = reduce_sum(u, axis=-1)
        with copyout:
            store(a[r, :], s)
            store(b[r, :], m)
            store(c[r, :], t)
            store(d[r, :], o)
)";

TEST(Legalize, ReductionsOfRowsThatFitOneRepeatAreRepeatedWholeReduces) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kShortRows));
  std::string ir = ir::printModule(c.module);
  // 64 f32 elements are one 256-byte repeat; an f16 max takes 128.
  EXPECT_THAT(opLine(ir, "s"), ::testing::EndsWith(" repeat")) << ir;
  EXPECT_THAT(opLine(ir, "m"), ::testing::EndsWith(" repeat")) << ir;
  // An f16 sum rounds once on the scalar unit (the reference's rounding); 65 f32 elements need two repeats.
  EXPECT_THAT(opLine(ir, "t"), ::testing::Not(::testing::EndsWith(" repeat"))) << ir;
  EXPECT_THAT(opLine(ir, "o"), ::testing::Not(::testing::EndsWith(" repeat"))) << ir;
  EXPECT_NE(opLine(ir, "o"), "");
}

TEST(Legalize, VerifierRefusesARepeatedReduceOfRowsLongerThanARepeat) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kShortRows));
  ir::Kernel& k = c.module.kernels.at(0);
  for (ir::Node& n : k.nodes) {
    if (n.kind == ir::NodeKind::Reduce && k.buffer(n.dst).name == "o") n.form = ir::VecForm::Repeat;
  }
  std::vector<std::string> errors = ir::verify(k);
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("Reduce sum #"));
  EXPECT_THAT(errors[0], HasSubstr("is a repeated WholeReduce, but it is not a last-axis f32 sum or f16/f32 max/min "
                                   "of several rows that fit one repeat"));
}

// where() on tiles that end inside a 256-byte repeat (the A2 Compare works on whole ones).
constexpr const char* kWhere = R"(M = dim()
N = dim(max=64)

@kernel
def k(x: Tensor[f32, (M,)], h: Tensor[f16, (M,)], j: Tensor[i32, (M,)], q: Tensor[f32, (M, N)],
      w: Tensor[f32, (M, 128)], y: Tensor[f32, (M,)], z: Tensor[f16, (M,)], m: Tensor[f16, (M,)],
      e: Tensor[f32, (M,)], u: Tensor[f32, (M, N)], v: Tensor[f32, (M, 128)], s: Tensor[f32, (M,)]):
    part = split(M, cores=vector_cores())
    for t in tiles(part, size=1024):
        with copyin:
            a = load(x[t])
            g = load(h[t])
            n = load(j[t])
        with compute:
            pa = a > 0.5
            ya = where(pa, a, a * 2.0)
            pg = g < 1.0
            zg = where(pg, g, g * 2.0)
            pm = a >= 0.0
            mg = where(pm, g, g * 2.0)
            pn = n == 3
            en = where(pn, a, a * 3.0)
        with copyout:
            store(y[t], ya)
            store(z[t], zg)
            store(m[t], mg)
            store(e[t], en)
    for r in tiles(part, size=8):
        with copyin:
            b = load(q[r, :])
            c = load(w[r, :])
        with compute:
            pb = b > 0.0
            ub = where(pb, b, b * 0.5)
            pc = c > 0.0
            vc = where(pc, c, c * 0.5)
        with copyout:
            store(u[r, :], ub)
            store(v[r, :], vc)
    for t in tiles(part, size=1000):
        with copyin:
            d = load(x[t])
        with compute:
            pd = d < 1.0
            sd = where(pd, d, d * 4.0)
        with copyout:
            store(s[t], sd)
)";

bool padded(const std::string& line) { return line.size() > 7 && line.compare(line.size() - 7, 7, " padded") == 0; }

TEST(Legalize, ComparesWithRoomForWholeRepeatsAndTheSelectsTheyFeedArePadded) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kWhere));
  std::string ir = ir::printModule(c.module);
  // 1024 f32 or f16 elements hold whole repeats (64 and 128 lanes); an i32 == is a vector Compare too.
  for (const char* name : {"pa", "ya", "pg", "zg", "pm", "pn", "en", "pc", "vc"}) {
    EXPECT_TRUE(padded(opLine(ir, name))) << name << "\n" << ir;
  }
  EXPECT_THAT(opLine(ir, "pa"), ::testing::StartsWith("%pa = gt %a, 0.5"));
}

TEST(Legalize, ComparesWithoutRoomOrMasksOfNarrowerRepeatsKeepTheScalarTail) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kWhere));
  std::string ir = ir::printModule(c.module);
  // mg: an f32 Compare writes bits for 64 lanes a repeat, an f16 Select reads 128 per repeat.
  EXPECT_FALSE(padded(opLine(ir, "mg"))) << ir;
  // pb: rows of a dim() sit a run-time pitch apart; pd: 1000 elements have no room for 1024 lanes.
  for (const char* name : {"pb", "ub", "pd", "sd"}) {
    EXPECT_FALSE(padded(opLine(ir, name))) << name << "\n" << ir;
    EXPECT_NE(opLine(ir, name), "") << name;
  }
}

TEST(Legalize, VerifierRefusesAPaddedCompareWithoutRoomAndAPaddedSelectOfAnotherMask) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kWhere));
  ir::Kernel& k = c.module.kernels.at(0);
  for (ir::Node& n : k.nodes) {
    if (n.dst == ir::kNone) continue;
    const std::string& name = k.buffer(n.dst).name;
    if (name == "pd" || name == "mg") n.form = ir::VecForm::Padded;
  }
  std::vector<std::string> errors = ir::verify(k);
  ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  std::string all = errors[0] + "\n" + errors[1];
  EXPECT_THAT(all, HasSubstr("is a padded Compare, but its rows have no room for whole repeats (or it has no vector "
                             "form)"));
  EXPECT_THAT(all, HasSubstr("is a padded Select, but its mask has a writer that is not a padded Compare of repeats "
                             "as wide"));
}

// Binary ops of a tile and a per-row (r, 1) column.
constexpr const char* kColumn = R"(M = dim()
N = dim(max=64)
L = dim(max=2048)
K = dim(max=576)

@kernel
def k(x: Tensor[f32, (M, N)], c: Tensor[f32, (M, 1)], h: Tensor[f16, (M, N)], e: Tensor[f16, (M, 1)],
      w: Tensor[f32, (M, L)], y: Tensor[f32, (M, N)], z: Tensor[f32, (M, N)], g: Tensor[f16, (M, N)],
      u: Tensor[f32, (M, L)], o: Tensor[f32, (M, N)], ka: Tensor[f32, (M, K)], kb: Tensor[f32, (M, K)]):
    rows = split(M, cores=vector_cores())
    for r in tiles(rows, size=8):
        with copyin:
            v = load(x[r, :])
            m = load(c[r, :])
            a = load(h[r, :])
            b = load(e[r, :])
        with compute:
            d = v - m
            n = d * 3.0
            s = cumsum(v, axis=-1)
            f = m / s
            ga = a - b
        with copyout:
            store(y[r, :], n)
            store(z[r, :], f)
            store(g[r, :], ga)
    for p in tiles(rows, size=8, buffers=1):
        with copyin:
            t = load(w[p, :])
        with compute:
            tu = t * reduce_max(t, axis=-1)
        with copyout:
            store(u[p, :], tu)
    for q in tiles(rows, size=4):
        with copyin:
            v4 = load(x[q, :])
            m4 = load(c[q, :])
        with compute:
            d4 = v4 + m4
        with copyout:
            store(o[q, :], d4)
    for p8 in tiles(rows, size=8, buffers=1):
        with copyin:
            t8 = load(ka[p8, :])
            m8 = load(c[p8, :])
        with compute:
            d8 = t8 * m8
        with copyout:
            store(kb[p8, :], d8)
)";

bool endsWith(const std::string& line, const std::string& form) {
  return line.size() > form.size() && line.compare(line.size() - form.size(), form.size(), form) == 0;
}

TEST(Legalize, F32OpsOfATileAndItsColumnReadTheColumnSpreadAcrossItsBlocks) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kColumn));
  std::string ir = ir::printModule(c.module);
  // v's rows were padded by its load, so d runs over their whole pitch and writes its padding: n after it is flat.
  EXPECT_EQ(opLine(ir, "d"), "%d = sub %v, %m column-flat") << ir;
  EXPECT_TRUE(flat(opLine(ir, "n"))) << ir;
  // A row scan leaves the padding of s unwritten: f runs over each row's elements only (the column on the left).
  EXPECT_EQ(opLine(ir, "f"), "%f = div %m, %s column") << ir;
}

TEST(Legalize, ColumnsOfHalfTilesLongRowsFewerThanEightRowsOrFewerRowsThanSlicesStayPerRow) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kColumn));
  std::string ir = ir::printModule(c.module);
  // f16 columns hold their values 16 apart, Brcb reads 8; rows of up to 2048 f32 are 256 blocks, past a repeat
  // stride's 255; 4-row tiles leave no room for the 8 blocks a Brcb repeat writes; 8 rows of up to 576 take 9
  // calls of 64 lanes, more than the 8 of the row-by-row form.
  for (const char* name : {"ga", "tu", "d4", "d8"}) {
    EXPECT_NE(opLine(ir, name), "") << name;
    EXPECT_FALSE(endsWith(opLine(ir, name), " column") || endsWith(opLine(ir, name), " column-flat")) << ir;
  }
}

TEST(Legalize, VerifierRefusesAColumnFormOfHalfTilesAndAColumnFlatOpOverUnwrittenPadding) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, kColumn));
  ir::Kernel& k = c.module.kernels.at(0);
  for (ir::Node& n : k.nodes) {
    if (n.kind != ir::NodeKind::Binary || n.dst == ir::kNone) continue;
    if (k.buffer(n.dst).name == "ga") n.form = ir::VecForm::Column;
    if (k.buffer(n.dst).name == "f") n.form = ir::VecForm::ColumnFlat;
  }
  std::vector<std::string> errors = ir::verify(k);
  ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  std::string all = errors[0] + "\n" + errors[1];
  EXPECT_THAT(all, HasSubstr("is a column form, but it is not an f32 add/sub/mul/div/max/min of a tile and its column "
                             "whose rows Brcb can spread"));
  EXPECT_THAT(all, HasSubstr("is column-flat, but Scan #"));
  EXPECT_THAT(all, HasSubstr("leaves the row padding of %s unwritten"));
}

TEST(Legalize, OpsOnRowStatisticsWithUnwrittenPaddingRunOnEveryRowsFirstLane) {
  testing::Compiled c;
  ASSERT_NO_FATAL_FAILURE(legalized(c, R"(M = dim()
N = dim(max=64)

@kernel
def k(x: Tensor[f16, (M, N)], c: Tensor[f32, (M, 1)], a: Tensor[f16, (M, 1)], b: Tensor[f32, (M, 1)]):
    rows = split(M, cores=vector_cores())
    for r in tiles(rows, size=64):
        with copyin:
            v = load(x[r, :])
            w = load(c[r, :])
        with compute:
            m = reduce_max(v, axis=-1)
            e = exp(m * 0.5) + m
            t = tanh(m)
            u = w * 2.0
        with copyout:
            store(a[r, :], e + t)
            store(b[r, :], u)
)"));
  std::string ir = ir::printModule(c.module);
  // m is a repeated WholeReduce's result: one value at the start of each row's block, the rest unwritten.
  EXPECT_EQ(opLine(ir, "e"), "%e = add %1, %m first-lanes") << ir;
  EXPECT_THAT(ir, HasSubstr("%0 = muls %m, 0.5 first-lanes"));
  // tanh has no level-0 form; a loaded column's padding is written, so its ops are flat.
  EXPECT_EQ(opLine(ir, "t"), "%t = tanh %m work=%t.work") << ir;
  EXPECT_TRUE(flat(opLine(ir, "u"))) << ir;
  ir::Kernel& k = c.module.kernels.at(0);
  for (ir::Node& n : k.nodes) {
    if (n.dst != ir::kNone && k.buffer(n.dst).name == "t") n.form = ir::VecForm::FirstLanes;
  }
  std::vector<std::string> errors = ir::verify(k);
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("is first-lanes, but its operands are not f16/f32 columns of one shape with a "
                                   "level-0 form"));
}

}  // namespace
}  // namespace tilecraft::passes
