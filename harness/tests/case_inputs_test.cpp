// Hostile cells in a task's cases.csv: each is an error of its row (FILE:LINE), the other rows still load, and
// nothing aborts the loader (a byte that is not UTF-8, a dim past int64, a non-finite attribute).
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/task.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

const char* kProto = R"(operator:
  name: Scale
  category: Elementwise
  difficulty: L1
  inputs:
  - name: x
    dtype: [float16]
  outputs:
  - name: y
    dtype: [float16]
  attrs:
  - name: alpha
    type: float
    default: 1.0
  schema: scale(Tensor x, float alpha) -> Tensor y
)";

TEST(CaseInputs, OutOfRangeCellsAreRowErrors) {
  fs::path dir = fs::temp_directory_path() / ("tilecraft_case_inputs_" + std::to_string(::getpid())) / "scale";
  fs::create_directories(dir);
  auto write = [&](const char* name, const std::string& text) { std::ofstream(dir / name, std::ios::binary) << text; };
  write("proto.yaml", kProto);
  write("golden.py", "def scale(x, alpha):\n    return x * alpha\n");
  write("desc.md", "desc\n");
  write("cases.csv",
        "operator,case_id,input_shape,dtype,attrs,value_range,note\n"
        "Scale,1,\"[[16]]\",\"[\"\"float16\"\"]\",\"{\"\"alpha\"\": 2.0}\",\"[-1, 1]\",ok\n"
        "Scale,2,\"[[16, -4]]\",\"[\"\"float16\"\"]\",{},\"[-1, 1]\",negative\n"
        "Scale,3,\"[[18446744073709551615]]\",\"[\"\"float16\"\"]\",{},\"[-1, 1]\",past int64\n"
        "Scale,4,\"[[4294967296, 4294967296, 4294967296]]\",\"[\"\"float16\"\"]\",{},\"[-1, 1]\",too many\n"
        "Scale,5,\"[[16]]\",\"[\"\"float16\"\"]\",\"{\"\"alpha\"\": inf}\",\"[-1, 1]\",infinite\n"
        "Scale,6,\"[[16]]\",\"[\"\"float16\"\"]\",\"{\"\"alpha\"\": nan}\",\"[-1, 1]\",nan\n"
        "Scale,7,\"[[16]]\",\"[\"\"float16\"\"]\",\"{\"\"alpha\"\": 1e999}\",\"[-1, 1]\",overflow\n");
  TaskLoad load = loadTask(dir);
  fs::remove_all(dir.parent_path());
  std::string f = (dir / "cases.csv").string();
  std::vector<std::string> errors;
  for (const TaskError& e : load.errors) errors.push_back(e.str());
  EXPECT_THAT(
      errors,
      ElementsAre(f + ":3: error: case 2: input 1 (x) has a negative dimension in [16,-4]",
                  f + ":4: error: case 3: input 1 (x) has a dimension past int64 in [18446744073709551615]",
                  f + ":5: error: case 4: input 1 (x) has more elements than int64 counts in "
                      "[4294967296,4294967296,4294967296]",
                  f + ":6: error: case 5: attribute `alpha` is inf: a float32 attribute must be a finite number",
                  f + ":7: error: case 6: attribute `alpha` is nan: a float32 attribute must be a finite number",
                  f + ":8: error: column attrs: not a JSON list or object: {\"alpha\": 1e999}"));
  ASSERT_TRUE(load.task);
  // Only the first row is a case (a cell that is not UTF-8 is a row error too: TaskLoad.CellsThatAreNotUtf8...).
  ASSERT_EQ(load.task->cases.size(), 1u);
}

}  // namespace
}  // namespace tilecraft::harness
