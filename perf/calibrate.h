// `tilecraft perf calibrate`: the limit and eager models over every case of a CANN Bench CSV, compared with
// the published t_hw_us and the measured eager baselines.
#pragma once

#include <string>
#include <vector>

#include "perf/arch.h"
#include "perf/cases.h"
#include "perf/eager.h"
#include "perf/limit.h"

namespace tilecraft::perf {

struct CaseResult {
  const TaskCase* task = nullptr;
  bool covered = false;
  std::string skipReason;
  LimitResult limit;
  EagerResult eager;
  double limitRatio = 0;  // our HAP limit / t_hw_us
  double eagerRatio = 0;  // our eager device time / baseline_us
};

struct OperatorSummary {
  std::string op;
  std::string level;
  int cases = 0;
  int limitWithin10 = 0;
  double limitGeomean = 0;
  int eagerMeasured = 0;
  int eagerWithin2x = 0;
  double eagerGeomean = 0;  // over measured baselines; 0 when there are none
};

struct CalibrationSummary {
  int casesTotal = 0;
  int casesCovered = 0;
  int casesSkipped = 0;
  int casesMalformed = 0;       // skipped because the row could not be read (TaskCase::problem)
  double limitWithin10pct = 0;  // fraction of the covered cases that have a t_hw_us
  double limitGeomeanRatio = 0;
  int eagerMeasuredCases = 0;  // covered cases whose baseline was measured, not capped
  double eagerWithin2x = 0;    // fraction of those
  double eagerGeomeanRatio = 0;
};

struct CalibrationReport {
  std::string arch;
  std::string file;
  std::vector<CaseResult> cases;
  std::vector<OperatorSummary> operators;  // in order of first appearance in the file
  CalibrationSummary summary;
};

// `cases` must outlive the report (results point into it).
CalibrationReport calibrate(const std::vector<TaskCase>& cases, const ArchSpec& arch, const std::string& fileName);

std::string renderText(const CalibrationReport& report, bool perCase);
std::string renderJson(const CalibrationReport& report);

}  // namespace tilecraft::perf
