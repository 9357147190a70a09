// Hostile cells in a calibration CSV: each is a skipped row with FILE:LINE and the reason, never an abort, and the
// --json report stays valid JSON whatever bytes the file holds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include <fmt/format.h>

#include "perf/calibrate.h"
#include "perf/cases.h"
#include "perf/command.h"

namespace tilecraft::perf {
namespace {

const std::string kHeader =
    "level,op_dir,operator,category,case_id,input_shapes,dtypes,attrs,value_range,baseline_kernels,baseline_us,"
    "baseline_kind,t_hw_us\n";
const std::string kGood =
    "level1,exp,Exp,E,1,\"[[4096]]\",\"[\"\"float16\"\"]\",{},,Exp\xC3\x97"
    "1,10,measured,1\n";

std::string rowProblem(const std::string& row) {
  std::vector<TaskCase> cases = parseCasesCsv(kHeader + kGood + row, "cases.csv");
  EXPECT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].problem, "") << "the good row must still load";
  return fmt::format("line {}: {}", cases.back().line, cases.back().problem);
}

TEST(CasesInputs, TimesMustBeFinitePositiveMicroseconds) {
  std::string row = "level1,exp,Exp,E,2,\"[[4]]\",\"[\"\"float16\"\"]\",{},,,10,measured,";
  EXPECT_EQ(rowProblem(row + "0\n"), "line 3: column t_hw_us: 0 is not a positive time in microseconds");
  EXPECT_EQ(rowProblem(row + "-1.5\n"), "line 3: column t_hw_us: -1.5 is not a positive time in microseconds");
  EXPECT_EQ(rowProblem(row + "nan\n"), "line 3: column t_hw_us: 'nan' is not a finite number");
  EXPECT_EQ(rowProblem(row + "inf\n"), "line 3: column t_hw_us: 'inf' is not a finite number");
  EXPECT_EQ(rowProblem(row + "1e999\n"), "line 3: column t_hw_us: '1e999' is not a finite number");
  std::string base = "level1,exp,Exp,E,2,\"[[4]]\",\"[\"\"float16\"\"]\",{},,,";
  EXPECT_EQ(rowProblem(base + "0,measured,1\n"),
            "line 3: column baseline_us: 0 is not a positive time in microseconds");
}

TEST(CasesInputs, DimsAndNumbersOutOfRangeAreRowErrors) {
  std::string tail = ",\"[\"\"float16\"\"]\",{},,,10,measured,1\n";
  EXPECT_EQ(rowProblem("level1,exp,Exp,E,2,\"[[4, -3]]\"" + tail),
            "line 3: column input_shapes: input 0: dimension -3 is negative");
  EXPECT_EQ(rowProblem("level1,exp,Exp,E,2,\"[[18446744073709551615]]\"" + tail),
            "line 3: column input_shapes: input 0: dimension 18446744073709551615 is past int64");
  EXPECT_EQ(
      rowProblem("level1,exp,Exp,E,2,\"[[4]]\",\"[\"\"float16\"\"]\",\"{\"\"base\"\": 1e999}\",,,10,measured,1\n"),
      "line 3: column attrs: a number is out of range (past a double)");
  EXPECT_EQ(rowProblem("level1,exp,Exp,E,99999999999,\"[[4]]\"" + tail),
            "line 3: column case_id: '99999999999' is not a case number");
}

TEST(CasesInputs, JsonReportOfANonUtf8FileIsValid) {
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / (std::to_string(getpid()) + "_tilecraft_latin1.csv");
  std::ofstream(file) << kHeader << kGood
                      << "level1,exp,Exp\xE9,E,2,\"[[4]]\",\"[\"\"float16\"\"]\",{},,,10,measured,0\n";
  std::ostringstream out, err;
  CalibrateOptions options;
  options.csv = file.string();
  options.json = true;
  options.archDir = (std::filesystem::path(TILECRAFT_SOURCE_DIR) / "configs" / "arch").string();
  EXPECT_EQ(runCalibrate(options, out, err), 0) << err.str();
  std::filesystem::remove(file);
  nlohmann::json j = nlohmann::json::parse(out.str());  // throws on invalid UTF-8
  EXPECT_EQ(j["cases"][1]["operator"], "Exp\xEF\xBF\xBD");
  EXPECT_EQ(j["cases"][1]["skip_reason"],
            file.filename().string() + ":3: column t_hw_us: 0 is not a positive time in microseconds");
}

TEST(CasesInputs, AFolderOrADeviceIsNotACasesFile) {
  EXPECT_THROW(loadCasesCsv("/dev/zero"), std::exception);
  try {
    loadCasesCsv(std::filesystem::temp_directory_path());
    FAIL() << "a folder was read as a cases file";
  } catch (const std::exception& e) {
    EXPECT_EQ(std::string(e.what()),
              std::filesystem::temp_directory_path().string() + ": not a regular file (a cases file is a CSV)");
  }
}

}  // namespace
}  // namespace tilecraft::perf
