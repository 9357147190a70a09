// Calibration against CANN Bench's published 910B2 figures. Reads the repository's copy (data/calibration/), never
// the environment's default, so the figures checked are the committed ones; its absence is a failure.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unistd.h>

#include "perf/calibrate.h"
#include "perf/command.h"

namespace tilecraft::perf {
namespace {

std::filesystem::path archDir() { return std::filesystem::path(TILECRAFT_SOURCE_DIR) / "configs" / "arch"; }
std::filesystem::path publicCsv() {
  return std::filesystem::path(TILECRAFT_SOURCE_DIR) / "data" / "calibration" / "cann_bench_910b2_public.csv";
}

class PublicCalibration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::filesystem::path csv = publicCsv();
    if (!std::filesystem::exists(csv)) return;
    cases_ = new std::vector<TaskCase>(loadCasesCsv(csv));
    report_ = new CalibrationReport(calibrate(*cases_, loadArchByName("910b2", archDir()), "public.csv"));
  }
  static void TearDownTestSuite() {
    delete report_;
    delete cases_;
    report_ = nullptr;
    cases_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(report_, nullptr) << "calibration CSV not found at " << publicCsv().string(); }
  static std::vector<TaskCase>* cases_;
  static CalibrationReport* report_;
};
std::vector<TaskCase>* PublicCalibration::cases_ = nullptr;
CalibrationReport* PublicCalibration::report_ = nullptr;

TEST_F(PublicCalibration, CoversAllOfLevelOneAndTwoAndTheMatmulLikeCasesOfLevelThree) {
  const std::set<std::string> matmulLike = {"QuantMatmul", "WeightQuantBatchMatmul", "GroupedMatmul",
                                            "Conv2D",      "Conv3DBackpropFilter",   "DepthwiseConv2D"};
  for (const CaseResult& r : report_->cases) {
    if (r.task->level == "level1" || r.task->level == "level2" || matmulLike.count(r.task->op)) {
      EXPECT_TRUE(r.covered) << r.task->op << " case " << r.task->caseId << ": " << r.skipReason;
    }
  }
  EXPECT_EQ(report_->summary.casesTotal, 450);
  EXPECT_EQ(report_->summary.casesCovered + report_->summary.casesSkipped, 450);
  EXPECT_GE(report_->summary.casesCovered, 420);
}

TEST_F(PublicCalibration, EagerModelMeetsItsTargets) {
  const CalibrationSummary& s = report_->summary;
  EXPECT_GE(s.eagerMeasuredCases, 200);
  EXPECT_GE(s.eagerGeomeanRatio, 0.8);
  EXPECT_LE(s.eagerGeomeanRatio, 1.25);
  EXPECT_GE(s.eagerWithin2x, 0.80);
}

TEST_F(PublicCalibration, LimitMeetsItsTarget) {
  // Target: within ±10 % of t_hw_us on 90 % of the covered cases (docs/perf-model.md lists the misses).
  const CalibrationSummary& s = report_->summary;
  EXPECT_GE(s.limitWithin10pct, 0.90);
  EXPECT_GT(s.limitGeomeanRatio, 0.95);
  EXPECT_LT(s.limitGeomeanRatio, 1.05);
}

TEST_F(PublicCalibration, MemoryBoundOperatorsMatchEveryCase) {
  // Operators whose t_hw_us is pure data movement must match case for case.
  const std::set<std::string> exact = {"Maximum",
                                       "MaskedScale",
                                       "ForeachAddcdivScalar",
                                       "RmsNorm",
                                       "Scatter",
                                       "Gather",
                                       "ArgMax",
                                       "ApplyAdamW",
                                       "ApplyRotaryPosEmb",
                                       "QuantMatmul",
                                       "GroupedMatmul",
                                       "Conv2D",
                                       "Conv3DBackpropFilter",
                                       "WeightQuantBatchMatmul"};
  for (const CaseResult& r : report_->cases) {
    if (!exact.count(r.task->op)) continue;
    EXPECT_NEAR(r.limitRatio, 1.0, 0.10) << r.task->op << " case " << r.task->caseId;
  }
}

TEST_F(PublicCalibration, VectorRecipesMatchEveryCaseOfTheirOperators) {
  // Operators whose vector-bound cases follow CANN Bench's counts (docs/perf-model.md §3): every case.
  const std::set<std::string> exact = {"Exp",
                                       "Sigmoid",
                                       "Gelu",
                                       "Mish",
                                       "SwiGlu",
                                       "Softmax",
                                       "GroupNorm",
                                       "CrossEntropyLoss",
                                       "ForeachNorm",
                                       "Cummin",
                                       "Gcd",
                                       "GridSampler3D",
                                       "MhcSinkhorn",
                                       "DequantSwigluQuant",
                                       "AddRmsNormDynamicQuant",
                                       "DepthwiseConv2D",
                                       "Dilation2D",
                                       "MoeGatingTopKSoftmax",
                                       "NMS"};
  for (const CaseResult& r : report_->cases) {
    if (!exact.count(r.task->op)) continue;
    EXPECT_NEAR(r.limitRatio, 1.0, 0.10) << r.task->op << " case " << r.task->caseId;
  }
}

TEST_F(PublicCalibration, JsonSummaryHasTheDocumentedFields) {
  nlohmann::json j = nlohmann::json::parse(renderJson(*report_));
  const auto& s = j.at("summary");
  EXPECT_EQ(s.at("cases_covered").get<int>(), report_->summary.casesCovered);
  EXPECT_EQ(s.at("cases_skipped").get<int>(), report_->summary.casesSkipped);
  EXPECT_DOUBLE_EQ(s.at("limit_within_10pct").get<double>(), report_->summary.limitWithin10pct);
  EXPECT_DOUBLE_EQ(s.at("eager_within_2x").get<double>(), report_->summary.eagerWithin2x);
  EXPECT_DOUBLE_EQ(s.at("eager_geomean_ratio").get<double>(), report_->summary.eagerGeomeanRatio);
  EXPECT_EQ(j.at("cases").size(), 450u);
  EXPECT_EQ(j.at("file"), "public.csv");
}

TEST_F(PublicCalibration, TextReportListsSkippedOperatorsWithReasons) {
  std::string text = renderText(*report_, false);
  EXPECT_NE(text.find("skipped:\n"), std::string::npos);
  EXPECT_NE(text.find("  Unique: not modelled: data-dependent output size (sort plus compaction) (10 cases, level3)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("summary: "), std::string::npos);
}

// Per-process names: other build folders may run the same tests at the same time.
std::string writeTemp(const std::string& name, const std::string& text) {
  std::filesystem::path p = std::filesystem::temp_directory_path() / (std::to_string(getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p.string();
}

TEST(CalibrateCommand, RunsAnyFileInTheFormat) {
  std::string file = writeTemp("tilecraft_perf_one.csv",
                               "level,op_dir,operator,category,case_id,input_shapes,dtypes,attrs,value_range,"
                               "baseline_kernels,baseline_us,baseline_kind,t_hw_us\n"
                               "level1,exp,Exp,Elementwise,1,\"[[8192, 8192]]\",\"[\"\"float16\"\"]\",{},,Exp\xC3\x97"
                               "1,143.2,measured,69.91\n"
                               "level9,x,Mystery,X,1,\"[[4]]\",\"[\"\"float16\"\"]\",{},,,10,capped,1\n");
  std::ostringstream out, err;
  CalibrateOptions options;
  options.csv = file;
  options.json = true;
  options.archDir = archDir();
  ASSERT_EQ(runCalibrate(options, out, err), 0) << err.str();
  nlohmann::json j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["summary"]["cases_covered"], 1);
  EXPECT_EQ(j["summary"]["cases_skipped"], 1);
  EXPECT_DOUBLE_EQ(j["summary"]["limit_within_10pct"].get<double>(), 1.0);
  EXPECT_EQ(j["cases"][1]["skip_reason"], "not modelled: no work function for operator 'Mystery'");
  EXPECT_EQ(j["file"], std::filesystem::path(file).filename().string());
}

TEST(CalibrateCommand, MissingFileIsAClearError) {
  std::ostringstream out, err;
  CalibrateOptions options;
  options.csv = "no/such/file.csv";
  options.archDir = archDir();
  EXPECT_EQ(runCalibrate(options, out, err), 1);
  EXPECT_EQ(err.str(),
            "error: cases file no/such/file.csv not found\n"
            "hint: pass FILE.csv, or set TILECRAFT_SHARED to a folder holding "
            "calibration/cann_bench_910b2_public.csv\n");
}

TEST(CalibrateCommand, MalformedRowIsASkippedCaseAndUnknownArchAnError) {
  std::string file = writeTemp("tilecraft_perf_bad.csv",
                               "level,op_dir,operator,category,case_id,input_shapes,dtypes,attrs,value_range,"
                               "baseline_kernels,baseline_us,baseline_kind,t_hw_us\n"
                               "level1,exp,Exp,E,1,\"[[4]]\",\"[\"\"float16\"\"]\",{},,,1,measured\n"
                               "level1,exp,Exp,E,2,\"[[4096]]\",\"[\"\"float16\"\"]\",{},,,1,measured,1\n");
  std::ostringstream out, err;
  CalibrateOptions options;
  options.csv = file;
  options.json = true;
  options.archDir = archDir();
  ASSERT_EQ(runCalibrate(options, out, err), 0) << err.str();
  EXPECT_EQ(err.str(), "");
  nlohmann::json j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["summary"]["cases_total"], 2);
  EXPECT_EQ(j["summary"]["cases_covered"], 1);
  EXPECT_EQ(j["summary"]["cases_malformed"], 1);
  EXPECT_EQ(j["cases"][0]["covered"], false);
  // Only the file name: the report must not depend on where the file lives.
  EXPECT_EQ(j["cases"][0]["skip_reason"],
            std::filesystem::path(file).filename().string() + ":2: 12 fields, the header has 13");
  EXPECT_EQ(j["cases"][1]["covered"], true);

  std::ostringstream out2, err2;
  options.json = false;
  options.arch = "h100";
  EXPECT_EQ(runCalibrate(options, out2, err2), 1);
  EXPECT_EQ(err2.str(),
            "error: unknown architecture 'h100': no spec file " + (archDir() / "h100.json").string() + "\n");
}

// A CANN Bench cases.csv with level-4 rows (tensor lists, null inputs) and bad rows: every row is reported, the
// run completes, and a row without figures shows dashes where the published figures would be.
TEST(CalibrateCommand, LevelFourTaskCasesAreSkippedWithTheirReasons) {
  std::ostringstream out, err;
  CalibrateOptions options;
  options.csv = (std::filesystem::path(TILECRAFT_SOURCE_DIR) / "perf/tests/data/level4/rnn_mix/cases.csv").string();
  options.archDir = archDir();
  ASSERT_EQ(runCalibrate(options, out, err), 0) << err.str();
  EXPECT_EQ(err.str(), "");
  std::string text = out.str();
  EXPECT_NE(text.find("perf calibrate: 6 cases from cases.csv, arch 910b2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nskipped:\n"
                      "  GRU: not modelled: no work function for operator 'GRU' (1 case, level4)\n"
                      "  LSTM: not modelled: no work function for operator 'LSTM' (1 case, level4)\n"
                      "  GRU: cases.csv:5: column dtypes: input 1 has no dtype (1 case, level4)\n"
                      "  Exp: cases.csv:6: column dtypes: unknown dtype 'float8' (1 case, level4)\n"
                      "  Exp: cases.csv:7: 6 fields, the header has 7 (1 case, level4)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nsummary: 1 covered, 5 skipped (3 unreadable rows)\n"), std::string::npos) << text;
  // The covered Exp case: our limit and eager times, no published figures to compare with.
  size_t exp = text.find("\nExp ");
  ASSERT_NE(exp, std::string::npos) << text;
  std::string line = text.substr(exp + 1, text.find('\n', exp + 1) - exp - 1);
  EXPECT_NE(line.find(" none "), std::string::npos) << line;
  EXPECT_EQ(line.substr(line.size() - 2), " -") << line;
}

}  // namespace
}  // namespace tilecraft::perf
