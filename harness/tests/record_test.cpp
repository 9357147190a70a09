#include "harness/record.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace tilecraft::harness {
namespace {

TEST(Record, RoundTripsThroughJson) {
  Record r;
  r.task = "rms_norm";
  r.category = "normalization";
  r.level = 2;
  r.caseId = "7";
  r.sample = 3;
  r.solutionKind = "dsl";
  r.instantiation = "rms_norm_f32.tile";
  r.compiled = true;
  r.correct = false;
  r.failure = Failure::NumericMismatch;
  r.message = "y: mean rel error 0.1 > tau 0.0001 \"quoted\"";
  r.rule = "cann";
  r.meanRelError = 0.1;
  r.maxRelError = 2.5;
  r.tau = 1.0 / 8192;
  r.simUs = 12.5;
  r.limitUs = 3.25;
  r.eagerUs = 20;
  r.eagerSource = "model";
  r.bottleneck = "MTE2";
  r.pipeBusyUs = {{"MTE2", 10.5}, {"V", 2}};
  r.wallSeconds = 0.75;
  std::string line = recordToJson(r);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  std::string error;
  std::optional<Record> back = parseRecord(line, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(recordToJson(*back), line);
  EXPECT_EQ(recordKey(*back), "rms_norm/7/3");
}

TEST(Record, NonFiniteFiguresBecomeNull) {
  Record r;
  r.task = "t";
  r.caseId = "1";
  r.maxRelError = std::numeric_limits<double>::infinity();
  std::string line = recordToJson(r);
  EXPECT_NE(line.find("\"max_rel_error\":null"), std::string::npos) << line;
  std::string error;
  EXPECT_EQ(parseRecord(line, &error)->maxRelError, 0);
}

TEST(Record, MalformedLinesSayWhatIsWrong) {
  std::string error;
  EXPECT_FALSE(parseRecord("{\"task\":\"t\"", &error));
  EXPECT_NE(error.find("parse error"), std::string::npos) << error;
  EXPECT_FALSE(parseRecord("[1,2]", &error));
  EXPECT_EQ(error, "not a JSON object");
  EXPECT_FALSE(parseRecord(R"({"task":"t","case":"1","sample":0})", &error));
  EXPECT_EQ(error, "missing 'failure'");
  EXPECT_FALSE(parseRecord(R"({"task":"t","case":"1","sample":0,"failure":"bogus"})", &error));
  EXPECT_EQ(error, "unknown failure 'bogus'");
  EXPECT_FALSE(parseRecord(R"({"task":"t","case":"1","sample":0,"failure":"none","sim_us":"x"})", &error));
  EXPECT_EQ(error, "'sim_us' is not a number");
}

TEST(Record, EveryFailureNameRoundTrips) {
  for (Failure f :
       {Failure::None, Failure::Syntax, Failure::UnknownApi, Failure::Signature, Failure::Dtype, Failure::MemoryCheck,
        Failure::Hazard, Failure::NumericMismatch, Failure::AntiCheat, Failure::Crash, Failure::Timeout,
        Failure::SandboxViolation, Failure::GoldenError, Failure::NotEvaluable, Failure::NoSolution}) {
    EXPECT_EQ(failureFromName(failureName(f)), f) << failureName(f);
  }
}

}  // namespace
}  // namespace tilecraft::harness
