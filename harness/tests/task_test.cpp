// The task loader: proto.yaml, cases.csv / cases.yaml, the CSV reader and cell literals, output dtypes.
#include <cmath>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/case_parse.h"
#include "harness/csv.h"
#include "harness/task.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;
using dsl::DType;
using ::testing::ElementsAre;

const fs::path kData = fs::path(TILECRAFT_SOURCE_DIR) / "harness/tests/data/tasks";

// A task folder written by the test, removed afterwards.
class TempTask {
 public:
  explicit TempTask(const std::string& name) {
    dir_ = fs::temp_directory_path() / ("tilecraft_task_test_" + std::to_string(::getpid())) / name;
    fs::create_directories(dir_);
    write("golden.py", "def " + name + "(x):\n    return x\n");
    write("desc.md", "desc\n");
  }
  ~TempTask() { fs::remove_all(dir_.parent_path()); }
  void write(const std::string& file, const std::string& text) const {
    std::ofstream(dir_ / file, std::ios::binary) << text;
  }
  const fs::path& dir() const { return dir_; }
  std::string path(const std::string& file) const { return (dir_ / file).string(); }

 private:
  fs::path dir_;
};

const char* kUnaryProto = R"(operator:
  name: Unary
  category: Elementwise
  difficulty: L1
  inputs:
  - name: x
    dtype: [float16, float32]
  outputs:
  - name: y
    dtype: [float16, float32]
  schema: unary(Tensor x) -> Tensor y
)";

std::vector<std::string> messages(const TaskLoad& load) {
  std::vector<std::string> out;
  for (const TaskError& e : load.errors) out.push_back(e.str());
  return out;
}

TEST(TaskLoad, ReadsProtoAndCsvWithBomCrlfQuotedLinesAndSpecialRanges) {
  TaskLoad load = loadTask(kData / "task_good");
  ASSERT_TRUE(load.errors.empty()) << load.errors[0].str();
  ASSERT_TRUE(load.task);
  const Task& t = *load.task;
  EXPECT_EQ(t.name, "task_good");
  EXPECT_EQ(t.op, "AddRmsNorm");
  EXPECT_EQ(t.category, "Normalization");
  EXPECT_EQ(t.level, 2);
  ASSERT_EQ(t.inputs.size(), 3u);
  EXPECT_FALSE(t.inputs[0].optional);
  EXPECT_TRUE(t.inputs[2].optional);
  EXPECT_THAT(t.inputs[0].dtypes, ElementsAre(DType::F16, DType::F32));
  ASSERT_EQ(t.attrs.size(), 2u);
  EXPECT_EQ(t.attrs[0].defaultJson, "1e-06");
  EXPECT_TRUE(t.attrs[1].required);
  EXPECT_EQ(t.attrs[1].defaultJson, "");
  ASSERT_EQ(t.precision.count(DType::F16), 1u);
  EXPECT_DOUBLE_EQ(t.precision.at(DType::F16).meanRel, 0.002);
  EXPECT_DOUBLE_EQ(t.precision.at(DType::F16).maxRel, 0.02);
  EXPECT_EQ(t.desc, "# task_good\nA loader test task.\n");
  EXPECT_FALSE(t.hasInputsPy);
  EXPECT_EQ(t.goldenFunction, "task_good");  // the schema says add_rms_norm, which golden.py does not define

  ASSERT_EQ(t.cases.size(), 2u);
  const Case& c1 = t.cases[0];
  EXPECT_EQ(c1.id, "1");
  EXPECT_EQ(c1.line, 2);
  EXPECT_EQ(c1.note, "two\nlines");
  EXPECT_EQ(c1.attrsJson, R"({"eps":1e-06,"mode":"a"})");
  ASSERT_EQ(c1.inputs.size(), 3u);
  EXPECT_THAT(c1.inputs[0].shapes, ElementsAre(std::vector<int64_t>{4, 67}));
  EXPECT_EQ(c1.inputs[0].dtype, DType::F16);
  ASSERT_TRUE(c1.inputs[0].valueRange);
  EXPECT_EQ(c1.inputs[0].valueRange->first, -INFINITY);
  EXPECT_EQ(c1.inputs[0].valueRange->second, INFINITY);
  ASSERT_TRUE(c1.inputs[1].valueRange);
  EXPECT_TRUE(std::isnan(c1.inputs[1].valueRange->first));
  EXPECT_FALSE(c1.inputs[2].present);
  EXPECT_THAT(t.outputDtypes(c1), ElementsAre(DType::F16, DType::F32));

  const Case& c2 = t.cases[1];
  EXPECT_EQ(c2.line, 4);  // the quoted cell of case 1 spans lines 2 and 3
  EXPECT_EQ(c2.attrsJson, R"({"eps":0.5,"mode":"b"})");
  for (const CaseTensor& in : c2.inputs) {
    EXPECT_EQ(in.dtype, DType::F32);  // one dtype for every input
    ASSERT_TRUE(in.valueRange);
    EXPECT_EQ(*in.valueRange, std::make_pair(-1.0, 1.0));  // one range for every input
  }
  EXPECT_THAT(t.outputDtypes(c2), ElementsAre(DType::F32, DType::F32));
}

TEST(TaskLoad, ABadRowDropsOnlyThatRowWithItsLine) {
  TaskLoad load = loadTask(kData / "task_bad_rows");
  std::string f = (kData / "task_bad_rows/cases.csv").string();
  EXPECT_THAT(
      messages(load),
      ElementsAre(f + ":3: error: column value_range: not a JSON list or object: [-1, 1",
                  f + ":6: error: case 5: attribute `mode` is required (proto.yaml) but the case does not set it",
                  f + ":7: error: case 6: value range of input 1 (x) is [3, 1]: lo > hi",
                  f + ":8: error: row has 6 cells, the header has 7", f + ":9: error: case_id 1 appears twice",
                  f + ":10: error: case 9: unknown dtype `float99` of input 1 (x)"));
  std::vector<std::string> warnings;
  for (const TaskError& w : load.warnings) warnings.push_back(w.str());
  EXPECT_THAT(warnings,
              ElementsAre(f + ":4: warning: case 3: input 2 (gamma) has no shape (null or left out) but proto.yaml "
                              "does not mark it optional; taken as absent",
                          f + ":5: warning: case 4: input 1 (x) is int8, which proto.yaml does not list (it lists "
                              "float16, float32)"));
  ASSERT_TRUE(load.task);
  std::vector<std::string> ids;
  for (const Case& c : load.task->cases) ids.push_back(c.id);
  EXPECT_THAT(ids, ElementsAre("1", "3", "4", "10"));
  EXPECT_FALSE(load.task->cases[1].inputs[1].present);
  EXPECT_FALSE(load.task->cases[3].inputs[0].valueRange);  // empty cell: the default range
}

TEST(TaskLoad, ProtoErrorsNameTheLineAndLeaveNoTask) {
  TempTask t("broken");
  t.write("proto.yaml", "operator:\n  name: X\n  inputs: [\n");
  t.write("cases.csv", "operator,case_id,input_shape,dtype\nX,1,\"[[4]]\",\"[\"\"float16\"\"]\"\n");
  TaskLoad load = loadTask(t.dir());
  EXPECT_FALSE(load.task);
  ASSERT_GE(load.errors.size(), 1u);
  EXPECT_EQ(load.errors[0].file, t.path("proto.yaml"));
  EXPECT_EQ(load.errors[0].line, 4);
  EXPECT_THAT(load.errors[0].message, ::testing::StartsWith("invalid YAML: "));

  t.write("proto.yaml", "name: X\n");
  EXPECT_THAT(
      messages(loadTask(t.dir())),
      ElementsAre(t.path("proto.yaml") +
                      ":1: error: proto.yaml must have an `operator:` mapping at its root (CANN Bench layout)",
                  t.path("cases.csv") + ":2: error: case 1: input_shape has 1 entries but proto.yaml declares 0 "
                                        "inputs"));

  t.write("proto.yaml",
          "operator:\n  name: X\n  difficulty: hard\n  inputs:\n  - name: x\n    dtype: [float17]\n"
          "  outputs:\n  - {name: y, dtype: float16}\n");
  EXPECT_THAT(messages(loadTask(t.dir())),
              ElementsAre(t.path("proto.yaml") + ":3: error: `difficulty` must be L1, L2, L3, L4 or L5, not `hard`",
                          t.path("proto.yaml") + ":6: error: unknown dtype `float17` of `x`"));
}

TEST(TaskLoad, MissingFilesAreErrors) {
  TempTask t("bare");
  fs::remove(t.dir() / "golden.py");
  fs::remove(t.dir() / "desc.md");
  t.write("proto.yaml", kUnaryProto);
  EXPECT_THAT(messages(loadTask(t.dir())),
              ElementsAre(t.path("cases.csv") + ": error: no cases.yaml or cases.csv in the task folder",
                          t.path("golden.py") + ": error: no golden.py (it must define a PyTorch function `bare`)",
                          t.path("desc.md") + ": error: no desc.md (the task's description for generators)"));
}

TEST(TaskLoad, CasesYamlWithListsNullsNamedRangesAndMarks) {
  TempTask t("lists");
  t.write("proto.yaml", R"(operator:
  name: Lists
  difficulty: L4
  attrs:
  - {name: alpha, type: float, default: 2}
  inputs:
  - {name: x, dtype: [float32, bfloat16]}
  - {name: ws, dtype: [float32, bfloat16]}
  - {name: h0, dtype: [float32, bfloat16]}
  outputs:
  - {name: y, dtype: [float32, bfloat16]}
  schema: f(Tensor x, Tensor[] ws, Tensor? h0=None) -> Tensor y
)");
  t.write("cases.yaml", R"(cases:
- operator: Lists
  case_id: 1
  input_shape:
  - [10, 4]
  - [[96, 64], [96, 32]]
  - null
  dtype: [bfloat16, [bfloat16], null]
  attrs: {}
  value_range: [[-.inf, .inf], [[-0.1, 0.1], [-0.2, 0.2]], null]
- operator: Lists
  case_id: 2
  input_shape: [[3], [[3]]]
  dtype: [float32, [float32]]
  value_range: {x: [.nan, .nan], ws: [0, 1]}
- operator: Lists
  case_id: 3
  input_shape: [[3], [3]]
  dtype: [float32, float16]
)");
  TaskLoad load = loadTask(t.dir());
  EXPECT_THAT(messages(load), ElementsAre());
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_EQ(load.warnings[0].str(), t.path("cases.yaml") +
                                        ":16: warning: case 3: input 2 (ws) is float16, which "
                                        "proto.yaml does not list (it lists float32, bfloat16)");
  ASSERT_TRUE(load.task);
  const Task& task = *load.task;
  EXPECT_EQ(task.level, 4);
  EXPECT_EQ(task.goldenFunction, "lists");
  EXPECT_TRUE(task.inputs[1].isList);    // from `Tensor[]` in the schema
  EXPECT_TRUE(task.inputs[2].optional);  // from `Tensor?`
  ASSERT_EQ(task.cases.size(), 3u);
  const Case& c1 = task.cases[0];
  EXPECT_EQ(c1.line, 2);
  EXPECT_EQ(c1.attrsJson, R"({"alpha":2})");
  EXPECT_TRUE(c1.inputs[1].isList);
  EXPECT_EQ(c1.inputs[1].shapes.size(), 2u);
  EXPECT_EQ(c1.inputs[1].dtype, DType::BF16);
  ASSERT_EQ(c1.inputs[1].elementRanges.size(), 2u);
  EXPECT_EQ(*c1.inputs[1].elementRanges[1], std::make_pair(-0.2, 0.2));
  EXPECT_EQ(c1.inputs[0].valueRange->first, -INFINITY);
  EXPECT_FALSE(c1.inputs[2].present);
  EXPECT_THAT(task.outputDtypes(c1), ElementsAre(DType::BF16));
  const Case& c2 = task.cases[1];
  EXPECT_EQ(c2.line, 11);
  EXPECT_TRUE(std::isnan(c2.inputs[0].valueRange->second));
  EXPECT_EQ(*c2.inputs[1].valueRange, std::make_pair(0.0, 1.0));
  EXPECT_FALSE(c2.inputs[2].present);  // left out at the end: optional, so absent
}

TEST(TaskLoad, FlattenedRangesSchemaNoneDefaultsAndQuotedFlags) {
  TempTask t("flat");
  t.write("proto.yaml", R"(operator:
  name: Flat
  difficulty: L2
  attrs:
  - {name: k, type: int, required: 'false'}
  - {name: eps, type: float, default: "1e-5"}
  - {name: mode, type: str, default: "1e-5"}
  inputs:
  - {name: xs, dtype: [float16]}
  - {name: g, dtype: [float16]}
  - {name: s, dtype: [float32]}
  outputs:
  - {name: y, dtype: [float16]}
  schema: flat(Tensor[] xs, Tensor g, Tensor s=None) -> Tensor y
)");
  t.write("cases.yaml", R"(cases:
- case_id: 1
  input_shape: [[[4], [4]], [4], null]
  dtype: [float16, float16, null]
  value_range: [[-1, 1], [-2, 2], [0, 1], null]
- case_id: 2
  input_shape: [[[4], [4]], [4]]
  dtype: [float16, float16]
  value_range: [[-1, 1], [-2, 2], [0, 1], [0, 2], [0, 3]]
)");
  TaskLoad load = loadTask(t.dir());
  EXPECT_THAT(messages(load), ElementsAre(t.path("cases.yaml") + ":6: error: case 2: value_range has 5 entries but "
                                                                 "proto.yaml declares 3 inputs (and the case has 4 "
                                                                 "tensors)"));
  EXPECT_TRUE(load.warnings.empty());
  ASSERT_TRUE(load.task);
  EXPECT_FALSE(load.task->attrs[0].required);
  EXPECT_EQ(load.task->cases.at(0).attrsJson, R"({"eps":1e-05,"mode":"1e-5"})");  // a number only for a float attr
  EXPECT_TRUE(load.task->inputs[2].optional);                                     // `Tensor s=None`
  const Case& c = load.task->cases.at(0);
  ASSERT_EQ(c.inputs[0].elementRanges.size(), 2u);
  EXPECT_EQ(*c.inputs[0].elementRanges[1], std::make_pair(-2.0, 2.0));
  EXPECT_EQ(*c.inputs[1].valueRange, std::make_pair(0.0, 1.0));
}

TEST(TaskLoad, UnrepresentedDtypesLoadAsNotEvaluable) {
  TempTask t("quant");
  t.write("proto.yaml", R"(operator:
  name: Quant
  difficulty: L3
  inputs:
  - {name: x, dtype: [float16, float16]}
  outputs:
  - {name: y, dtype: [int8, float8_e4m3fn]}
)");
  t.write("cases.csv",
          "case_id,operator,input_shape,dtype,attrs,value_range,note\n"
          "1,Quant,\"[[4]]\",\"['float16']\",{},\"[-inf, inf]\",python literal\n");
  TaskLoad load = loadTask(t.dir());
  ASSERT_TRUE(load.errors.empty()) << load.errors[0].str();
  ASSERT_TRUE(load.task);
  EXPECT_THAT(load.task->inputs[0].dtypeNames, ElementsAre("float16", "float16"));
  EXPECT_THAT(load.task->outputs[0].dtypes, ElementsAre(DType::I8));
  const Case& c = load.task->cases.at(0);
  EXPECT_EQ(c.unsupported, "");  // combination 0 fits first: y is int8
  EXPECT_THAT(load.task->outputDtypeNames(c), ElementsAre("int8"));
}

// Found by fuzz_csv (fuzz/FINDINGS.md): a cell that is not UTF-8 made the row's JSON throw out of loadTask.
TEST(TaskLoad, CellsThatAreNotUtf8AreRefusedWithTheirColumn) {
  TempTask t("not_utf8");
  t.write("proto.yaml", kUnaryProto);
  t.write("cases.csv",
          "case_id,input_shape,dtype,note\n"
          "1,\"[[2]]\",\"[\"\"float32\"\"]\",bad \xff note\n"
          "2,\"[[2]]\",\"[\"\"float32\"\"]\",\"\xed\xa0\x80\"\n"
          "3,\"[[2]]\",\"[\"\"float32\"\"]\",caf\xc3\xa9\n");
  TaskLoad load = loadTask(t.dir());
  EXPECT_THAT(messages(load),
              ElementsAre(t.path("cases.csv") + ":2: error: column note: not UTF-8 text (byte 0xFF at offset 4 of the "
                                                "cell); save cases.csv as UTF-8",
                          t.path("cases.csv") + ":3: error: column note: not UTF-8 text (byte 0xED at offset 0 of the "
                                                "cell); save cases.csv as UTF-8"));
  ASSERT_TRUE(load.task);
  ASSERT_EQ(load.task->cases.size(), 1u);
  EXPECT_EQ(load.task->cases[0].note, "caf\xc3\xa9");
  t.write("cases.csv", "case_id,input_shape,dtype,n\xc0\xafte\n1,\"[[2]]\",\"[\"\"float32\"\"]\",x\n");
  EXPECT_THAT(messages(loadTask(t.dir())),
              ElementsAre(t.path("cases.csv") + ":1: error: header column 4: not UTF-8 text (byte 0xC0 at offset 1); "
                                                "save cases.csv as UTF-8"));
}

TEST(TaskLoad, GoldenFunctionFollowsTheSchemaName) {
  TempTask t("golden_names");
  t.write("proto.yaml", kUnaryProto);  // schema: unary(Tensor x) -> Tensor y
  t.write("cases.csv", "case_id,input_shape,dtype\n1,\"[[2]]\",\"[\"\"float32\"\"]\"\n");
  t.write("golden.py", "import torch\n\ndef golden_names(x):\n    return x\n\ndef unary(x):\n    return x\n");
  EXPECT_EQ(loadTask(t.dir()).task->goldenFunction, "unary");
  t.write("golden.py", "def helper(x):\n    return x\n");
  EXPECT_THAT(messages(loadTask(t.dir())),
              ElementsAre(t.path("golden.py") + ": error: golden.py defines no function `golden_names` (def "
                                                "golden_names(...) is what the harness calls)"));
}

TEST(TaskLoad, CsvIsForcedWithCasesSource) {
  TempTask t("both");
  t.write("proto.yaml", kUnaryProto);
  t.write("cases.yaml", "cases:\n- {case_id: 1, input_shape: [[2]], dtype: [float16]}\n");
  t.write("cases.csv", "case_id,input_shape,dtype\n7,\"[[2]]\",\"[\"\"float32\"\"]\"\n");
  EXPECT_EQ(loadTask(t.dir()).task->cases.at(0).id, "1");
  EXPECT_EQ(loadTask(t.dir(), {CasesSource::Csv}).task->cases.at(0).id, "7");
}

TEST(TaskOutputDtypes, FixedDtypeInputsMatchEveryCombination) {
  Task task;
  task.inputs = {{"x", {}, false, false, {"float16", "float32", "bfloat16"}, 0},
                 {"idx", {}, false, false, {"int32"}, 0}};
  task.outputs = {{"y", {}, false, false, {"float16", "float32", "bfloat16"}, 0}};
  Case c;
  c.inputs.resize(2);
  c.inputs[0].dtypeName = "bfloat16";
  c.inputs[1].dtypeName = "int32";
  EXPECT_THAT(task.outputDtypeNames(c), ElementsAre("bfloat16"));
  c.inputs[0].dtypeName = "int8";  // no combination: the first input's dtype is not y's either
  EXPECT_THAT(task.outputDtypeNames(c), ElementsAre("float16"));
}

TEST(FindTaskDirs, SortedFoldersHoldingProtoYaml) {
  auto dirs = findTaskDirs(kData);
  std::vector<std::string> names;
  for (const auto& d : dirs) names.push_back(d.filename().string());
  EXPECT_THAT(names, ::testing::IsSupersetOf({"task_bad_rows", "task_good"}));
  EXPECT_TRUE(std::is_sorted(dirs.begin(), dirs.end()));
  EXPECT_THAT(findTaskDirs(kData / "task_good"), ElementsAre(kData / "task_good"));
}

TEST(Csv, QuotesBomCrlfAndUnterminatedCells) {
  std::vector<CsvError> errors;
  auto records = readCsv(
      "\xEF\xBB\xBF"
      "a,\"b,\"\"c\"\"\"\r\n\r\n\"x\r\ny\",\n",
      errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].line, 1);
  EXPECT_THAT(records[0].cells, ElementsAre("a", "b,\"c\""));
  EXPECT_EQ(records[1].line, 3);
  EXPECT_THAT(records[1].cells, ElementsAre("x\ny", ""));

  records = readCsv("a,b\n1,\"open\n2,3\n", errors);
  EXPECT_EQ(records.size(), 1u);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 2);
  EXPECT_EQ(errors[0].message, "unterminated quoted cell (a '\"' opened here is never closed)");
}

TEST(Csv, CellLiteralsBecomeStrictJson) {
  std::string json, error;
  ASSERT_TRUE(literalToJson("[['nan', 'nan'], [-inf, +inf, Infinity, -Infinity, NaN], [1e-5, 2.5E+3]]", json, error));
  EXPECT_EQ(json, R"([["nan", "nan"], ["-inf", "inf", "inf", "-inf", "nan"], [1e-5, 2.5E+3]])");
  ASSERT_TRUE(literalToJson("{'a': True, 'b': None, \"c\": false, 'd': 'it\\'s'}", json, error));
  EXPECT_EQ(json, R"({"a": true, "b": null, "c": false, "d": "it's"})");
  EXPECT_FALSE(literalToJson("[float16]", json, error));
  EXPECT_EQ(error, "unexpected word 'float16' at column 2 (strings need quotes)");
  EXPECT_FALSE(literalToJson("['abc", json, error));
  EXPECT_EQ(error, "unterminated string starting at column 2");
}

TEST(CaseParse, DtypeSpellings) {
  EXPECT_EQ(canonicalDtypeName("FP16"), "float16");
  EXPECT_EQ(canonicalDtypeName("torch.bfloat16"), "bfloat16");
  EXPECT_EQ(canonicalDtypeName("float"), "float32");
  EXPECT_EQ(dtypeFromCannName("int64"), DType::I64);
  EXPECT_FALSE(dtypeFromCannName("float8_e4m3fn"));
  EXPECT_TRUE(isKnownCannDtype("float8_e4m3fn"));
  EXPECT_FALSE(isKnownCannDtype("float17"));
}

}  // namespace
}  // namespace tilecraft::harness
