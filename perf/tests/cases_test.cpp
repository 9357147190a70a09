// The CANN Bench cases CSV: quoted JSON columns, tensor lists, null inputs, kernel lists; malformed rows are
// errors naming the file and line.
#include <gtest/gtest.h>

#include <cstdlib>

#include "perf/cases.h"
#include "perf/error.h"

namespace tilecraft::perf {
namespace {

const std::string kHeader =
    "level,op_dir,operator,category,case_id,input_shapes,dtypes,attrs,value_range,baseline_kernels,baseline_us,"
    "baseline_kind,t_hw_us\n";

std::string parseError(const std::string& text) {
  try {
    parseCasesCsv(text, "cases.csv");
  } catch (const PerfError& e) {
    return e.what();
  }
  return "no error";
}

TEST(CasesCsv, ParsesQuotedJsonColumns) {
  std::string text = kHeader +
                     "level1,exp,Exp,Elementwise,3,\"[[4096, 4096]]\",\"[\"\"bfloat16\"\"]\",\"{\"\"base\"\": -1.0, "
                     "\"\"approximate\"\": \"\"tanh\"\", \"\"flag\"\": true}\",\"[-3, 3]\",Muls\xC3\x97" "1 + Exp\xC3\x97" "2,58.922,measured,17.48\n"
                     "level1,f,ForeachNorm,Reduction,5,\"[[[2048, 4096], [2048, 4096]]]\",\"[\"\"float32\"\"]\",{},,"
                     ",10.9,capped,1.09\n";
  std::vector<TaskCase> cases = parseCasesCsv(text, "cases.csv");
  ASSERT_EQ(cases.size(), 2u);
  const TaskCase& c = cases[0];
  EXPECT_EQ(c.op, "Exp");
  EXPECT_EQ(c.caseId, 3);
  EXPECT_EQ(c.line, 2);
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].dtype, DType::BF16);
  EXPECT_EQ(c.inputs[0].shape(), (std::vector<int64_t>{4096, 4096}));
  EXPECT_DOUBLE_EQ(c.inputs[0].bytes(), 4096.0 * 4096 * 2);
  ASSERT_TRUE(c.inputs[0].valueRange.has_value());
  EXPECT_DOUBLE_EQ(c.inputs[0].valueRange->second, 3);
  EXPECT_DOUBLE_EQ(c.attrNumber("base", 0), -1.0);
  EXPECT_EQ(c.attrString("approximate", ""), "tanh");
  EXPECT_DOUBLE_EQ(c.attrNumber("flag", 0), 1.0);
  ASSERT_EQ(c.baselineKernels.size(), 2u);
  EXPECT_EQ(c.baselineKernels[1].name, "Exp");
  EXPECT_EQ(c.baselineKernels[1].count, 2);
  EXPECT_TRUE(c.baselineMeasured);
  EXPECT_DOUBLE_EQ(c.tHwUs, 17.48);

  const TaskCase& list = cases[1];
  EXPECT_TRUE(list.inputs[0].isList);
  EXPECT_EQ(list.inputs[0].shapes.size(), 2u);
  EXPECT_DOUBLE_EQ(list.inputs[0].numel(), 2.0 * 2048 * 4096);
  EXPECT_TRUE(list.baselineKernels.empty());
  EXPECT_FALSE(list.baselineMeasured);
}

TEST(CasesCsv, NullInputsAreAbsent) {
  std::string text = kHeader +
                     "level3,q,QuantMatmul,Contraction,2,\"[[8, 16], null, [16]]\",\"[\"\"int8\"\", null, \"\"float32\"\"]\",{},,"
                     "X\xC3\x97" "1,1.0,measured,1.0\n";
  std::vector<TaskCase> cases = parseCasesCsv(text, "cases.csv");
  ASSERT_EQ(cases[0].inputs.size(), 3u);
  EXPECT_TRUE(cases[0].inputs[0].present);
  EXPECT_FALSE(cases[0].inputs[1].present);
  EXPECT_EQ(cases[0].input(1), nullptr);
  EXPECT_EQ(cases[0].inputs[2].dtype, DType::F32);
}

TEST(CasesCsv, WrongFieldCountNamesFileAndLine) {
  std::string text = kHeader + "level1,exp,Exp,E,1,\"[[4]]\",\"[\"\"float16\"\"]\",{},,K\xC3\x97" "1,1,measured,1\n" +
                     "level1,exp,Exp,E,2,\"[[4]]\",\"[\"\"float16\"\"]\",{},K\xC3\x97" "1,1,measured,1\n";
  EXPECT_EQ(parseError(text), "cases.csv:3: 12 fields, the header has 13");
}

TEST(CasesCsv, InvalidJsonColumnNamesTheColumn) {
  std::string text = kHeader + "level1,exp,Exp,E,1,\"[[4, ]\",\"[\"\"float16\"\"]\",{},,,1,measured,1\n";
  EXPECT_EQ(parseError(text).rfind("cases.csv:2: column input_shapes: invalid JSON: ", 0), 0u) << parseError(text);
}

TEST(CasesCsv, UnknownDtypeIsReported) {
  std::string text = kHeader + "level1,exp,Exp,E,1,\"[[4]]\",\"[\"\"float8\"\"]\",{},,,1,measured,1\n";
  EXPECT_EQ(parseError(text), "cases.csv:2: column dtypes: unknown dtype 'float8'");
}

TEST(CasesCsv, BadNumbersAndKindsAreReported) {
  std::string row = "level1,exp,Exp,E,1,\"[[4]]\",\"[\"\"float16\"\"]\",{},,";
  EXPECT_EQ(parseError(kHeader + row + ",fast,measured,1\n"), "cases.csv:2: column baseline_us: 'fast' is not a number");
  EXPECT_EQ(parseError(kHeader + row + ",1,guessed,1\n"),
            "cases.csv:2: column baseline_kind: 'guessed' is neither 'measured' nor 'capped'");
  EXPECT_EQ(parseError(kHeader + row + "Exp\xC3\x97x,1,measured,1\n"), "cases.csv:2: kernel count 'x'");
}

TEST(CasesCsv, UnterminatedQuoteAndMissingColumnAreReported) {
  EXPECT_EQ(parseError(kHeader + "level1,exp,Exp,E,1,\"[[4]]\n"), "cases.csv:2: unterminated quoted field");
  EXPECT_EQ(parseError("level,op_dir\nx,y\n"), "cases.csv:1: header lacks the column 'operator'");
}

TEST(CasesCsv, MissingFileIsReported) {
  try {
    loadCasesCsv("no/such/cases.csv");
    FAIL() << "expected an error";
  } catch (const PerfError& e) {
    EXPECT_STREQ(e.what(), "no/such/cases.csv: cannot open the cases file");
  }
}

TEST(CasesCsv, DefaultPathHonoursTilecraftShared) {
  const char* old = std::getenv("TILECRAFT_SHARED");
  std::string saved = old ? old : "";
  setenv("TILECRAFT_SHARED", "/opt/shared", 1);
  EXPECT_EQ(defaultCalibrationCsv(), std::filesystem::path("/opt/shared/calibration/cann_bench_910b2_public.csv"));
  unsetenv("TILECRAFT_SHARED");
  EXPECT_EQ(defaultCalibrationCsv().filename(), "cann_bench_910b2_public.csv");
  EXPECT_EQ(defaultCalibrationCsv().parent_path().parent_path().filename(), "shared");
  if (old) setenv("TILECRAFT_SHARED", saved.c_str(), 1);
}

}  // namespace
}  // namespace tilecraft::perf
