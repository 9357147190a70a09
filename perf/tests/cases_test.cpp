// The CANN Bench cases CSV: quoted JSON columns, tensor lists, null inputs, kernel lists; a malformed row is a
// case carrying its problem (the others still load); only file-wide faults are errors naming the file and line.
#include <gtest/gtest.h>

#include <cstdlib>

#include <fmt/format.h>

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

// The problem of the last row ("line N: problem"), which must be the only bad row.
std::string rowProblem(const std::string& text) {
  std::vector<TaskCase> cases = parseCasesCsv(text, "cases.csv");
  if (cases.empty()) return "no rows";
  return fmt::format("line {}: {}", cases.back().line, cases.back().problem);
}

TEST(CasesCsv, ParsesQuotedJsonColumns) {
  std::string text = kHeader +
                     "level1,exp,Exp,Elementwise,3,\"[[4096, 4096]]\",\"[\"\"bfloat16\"\"]\",\"{\"\"base\"\": -1.0, "
                     "\"\"approximate\"\": \"\"tanh\"\", \"\"flag\"\": true}\",\"[-3, 3]\",Muls\xC3\x97"
                     "1 + Exp\xC3\x97"
                     "2,58.922,measured,17.48\n"
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
  std::string text =
      kHeader +
      "level3,q,QuantMatmul,Contraction,2,\"[[8, 16], null, [16]]\",\"[\"\"int8\"\", null, \"\"float32\"\"]\",{},,"
      "X\xC3\x97"
      "1,1.0,measured,1.0\n";
  std::vector<TaskCase> cases = parseCasesCsv(text, "cases.csv");
  ASSERT_EQ(cases[0].inputs.size(), 3u);
  EXPECT_TRUE(cases[0].inputs[0].present);
  EXPECT_FALSE(cases[0].inputs[1].present);
  EXPECT_EQ(cases[0].input(1), nullptr);
  EXPECT_EQ(cases[0].inputs[2].dtype, DType::F32);
}

TEST(CasesCsv, WrongFieldCountIsThatRowsProblemOnly) {
  std::string text = kHeader +
                     "level1,exp,Exp,E,1,\"[[4]]\",\"[\"\"float16\"\"]\",{},,K\xC3\x97"
                     "1,1,measured,1\n" +
                     "level1,exp,Exp,E,2,\"[[4]]\",\"[\"\"float16\"\"]\",{},K\xC3\x97"
                     "1,1,measured,1\n" +
                     "level1,exp,Exp,E,3,\"[[4]]\",\"[\"\"float16\"\"]\",{},,K\xC3\x97"
                     "1,1,measured,1\n";
  std::vector<TaskCase> cases = parseCasesCsv(text, "cases.csv");
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].problem, "");
  EXPECT_EQ(cases[1].problem, "12 fields, the header has 13");
  EXPECT_EQ(cases[1].line, 3);
  EXPECT_EQ(cases[1].op, "Exp");  // what identifies the row is kept for the report
  EXPECT_EQ(cases[1].caseId, 2);
  EXPECT_EQ(cases[2].problem, "");
  EXPECT_EQ(cases[2].caseId, 3);
}

TEST(CasesCsv, InvalidJsonColumnNamesTheColumn) {
  std::string text = kHeader + "level1,exp,Exp,E,1,\"[[4, ]\",\"[\"\"float16\"\"]\",{},,,1,measured,1\n";
  EXPECT_EQ(rowProblem(text).rfind("line 2: column input_shapes: invalid JSON: ", 0), 0u) << rowProblem(text);
}

TEST(CasesCsv, UnknownDtypeIsReported) {
  std::string text = kHeader + "level1,exp,Exp,E,1,\"[[4]]\",\"[\"\"float8\"\"]\",{},,,1,measured,1\n";
  EXPECT_EQ(rowProblem(text), "line 2: column dtypes: unknown dtype 'float8'");
}

TEST(CasesCsv, BadNumbersAndKindsAreReported) {
  std::string row = "level1,exp,Exp,E,1,\"[[4]]\",\"[\"\"float16\"\"]\",{},,";
  EXPECT_EQ(rowProblem(kHeader + row + ",fast,measured,1\n"),
            "line 2: column baseline_us: 'fast' is not a finite number");
  EXPECT_EQ(rowProblem(kHeader + row + ",1,guessed,1\n"),
            "line 2: column baseline_kind: 'guessed' is neither 'measured' nor 'capped'");
  EXPECT_EQ(rowProblem(kHeader + row + "Exp\xC3\x97x,1,measured,1\n"), "line 2: kernel count 'x'");
  EXPECT_EQ(rowProblem(kHeader + "level1,exp,Exp,E,1,[[4]]x\"y,\"[\"\"float16\"\"]\",{},,,1,measured,1\n"),
            "line 2: a quote inside an unquoted field");
}

// Level-4 rows: tensor-list inputs carry a list of dtypes and ranges, optional inputs are null in every column.
TEST(CasesCsv, TensorListDtypesAndNullInputsOfLevelFourRows) {
  std::string text = kHeader +
                     "level4,gru,GRU,RNN,1,\"[[10, 4, 64], [[96, 64]], [[96]], null]\","
                     "\"[\"\"float32\"\", [\"\"float32\"\"], [\"\"float32\"\"], null]\",{},"
                     "\"[[-1, 1], [[-0.1, 0.1]], [[-0.01, 0.01]], null]\",,1,measured,1\n";
  std::vector<TaskCase> cases = parseCasesCsv(text, "cases.csv");
  ASSERT_EQ(cases.size(), 1u);
  const TaskCase& c = cases[0];
  EXPECT_EQ(c.problem, "");
  ASSERT_EQ(c.inputs.size(), 4u);
  EXPECT_FALSE(c.inputs[0].isList);
  EXPECT_TRUE(c.inputs[1].isList);
  EXPECT_EQ(c.inputs[1].dtype, DType::F32);
  EXPECT_DOUBLE_EQ(c.inputs[1].numel(), 96.0 * 64);
  ASSERT_TRUE(c.inputs[1].valueRange.has_value());
  EXPECT_DOUBLE_EQ(c.inputs[1].valueRange->first, -0.1);
  EXPECT_DOUBLE_EQ(c.inputs[2].valueRange->second, 0.01);
  EXPECT_FALSE(c.inputs[3].present);
}

TEST(CasesCsv, TensorListDtypeFaultsAreTheRowsProblem) {
  std::string row = "level4,gru,GRU,RNN,1,\"[[10, 4, 64], [[96, 64], [96, 32]]]\",";
  EXPECT_EQ(rowProblem(kHeader + row + "\"[\"\"float32\"\", null]\",{},,,1,measured,1\n"),
            "line 2: column dtypes: input 1 has no dtype");
  EXPECT_EQ(rowProblem(kHeader + row + "\"[\"\"float32\"\", [\"\"float32\"\", \"\"float16\"\"]]\",{},,,1,measured,1\n"),
            "line 2: column dtypes: input 1 is a tensor list mixing float32 and float16");
}

// A few CANN Bench tasks write their list columns as Python literals.
TEST(CasesCsv, ReadsPythonLiteralColumns) {
  std::string text = kHeader +
                     "level3,r,ROIPooling,P,1,\"[[2, 8], [4, 5]]\",\"['float16', 'float32']\","
                     "\"{'pooled': 7, 'aligned': True, 'mode': None, 'name': 'max'}\",,,1,measured,1\n";
  std::vector<TaskCase> cases = parseCasesCsv(text, "cases.csv");
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].problem, "");
  EXPECT_EQ(cases[0].inputs[1].dtype, DType::F32);
  EXPECT_DOUBLE_EQ(cases[0].attrNumber("pooled", 0), 7);
  EXPECT_DOUBLE_EQ(cases[0].attrNumber("aligned", 0), 1);
  EXPECT_EQ(cases[0].attrString("name", ""), "max");
  EXPECT_EQ(cases[0].attrs.at("mode").kind, AttrValue::Kind::Null);
}

// CANN Bench's own tasks/*/cases.csv: no figures, the baseline kernels in the note, level and folder from the path.
TEST(CasesCsv, ReadsCannBenchTaskCasesWithoutFigures) {
  std::filesystem::path file =
      std::filesystem::path(TILECRAFT_SOURCE_DIR) / "perf" / "tests" / "data" / "level4" / "rnn_mix" / "cases.csv";
  std::vector<TaskCase> cases = loadCasesCsv(file);
  ASSERT_EQ(cases.size(), 6u);
  const TaskCase& gru = cases[0];
  EXPECT_EQ(gru.problem, "");
  EXPECT_FALSE(gru.hasFigures);
  EXPECT_EQ(gru.op, "GRU");
  EXPECT_EQ(gru.level, "level4");
  EXPECT_EQ(gru.opDir, "rnn_mix");
  EXPECT_EQ(gru.inputs.size(), 6u);
  EXPECT_FALSE(gru.inputs[5].present);
  const TaskCase& lstm = cases[1];
  ASSERT_EQ(lstm.baselineKernels.size(), 2u);
  EXPECT_EQ(lstm.baselineKernels[0].name, "ZerosLike");
  EXPECT_EQ(lstm.baselineKernels[0].count, 3);
  EXPECT_EQ(lstm.baselineKernels[1].name, "DynamicRNN");
  EXPECT_EQ(cases[2].op, "Exp");
  EXPECT_EQ(cases[2].problem, "");
  EXPECT_EQ(cases[3].problem, "column dtypes: input 1 has no dtype");
  EXPECT_EQ(cases[3].line, 5);
  EXPECT_EQ(cases[4].problem, "column dtypes: unknown dtype 'float8'");
  EXPECT_EQ(cases[5].problem, "6 fields, the header has 7");
  EXPECT_EQ(cases[5].line, 7);
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

TEST(CasesCsv, DefaultPathIsTheRepositorysCopyUnlessTilecraftSharedIsSet) {
  const char* old = std::getenv("TILECRAFT_SHARED");
  std::string saved = old ? old : "";
  setenv("TILECRAFT_SHARED", "/opt/shared", 1);
  EXPECT_EQ(defaultCalibrationCsv(), std::filesystem::path("/opt/shared/calibration/cann_bench_910b2_public.csv"));
  unsetenv("TILECRAFT_SHARED");
  EXPECT_EQ(defaultCalibrationCsv().filename(), "cann_bench_910b2_public.csv");
  EXPECT_EQ(defaultCalibrationCsv(),
            std::filesystem::path(TILECRAFT_SOURCE_DIR) / "data" / "calibration" / "cann_bench_910b2_public.csv");
  EXPECT_TRUE(std::filesystem::exists(defaultCalibrationCsv())) << "the repository carries its calibration data";
  if (old) setenv("TILECRAFT_SHARED", saved.c_str(), 1);
}

}  // namespace
}  // namespace tilecraft::perf
