// The scores of a set of result rows: Comp@k, Pass@k (the unbiased estimator over n samples), fast_p against
// eager, the geometric-mean speedup over correct cases, CANN Bench's limit score, and the failure taxonomy;
// overall, per category and per level. A pure function of the rows: a merged Slurm run scores as a local one.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/record.h"

namespace tilecraft::harness {

// 1 - C(n-c, k) / C(n, k): the chance that at least one of k samples drawn from n (c correct) is correct.
double passAtK(int n, int c, int k);

// CANN Bench's per-case score: (T_base - T_hw) / ((T_cand - T_hw) + (T_base - T_hw)), 0.5 at the baseline,
// 1 at the limit, towards 0 when slow.
double limitScore(double candUs, double baseUs, double limitUs);

struct Scores {
  int tasks = 0, cases = 0, samples = 0;
  double compAt1 = 0, passAt1 = 0;           // over tasks: a task compiles / passes if all its cases do
  std::map<int, double> passAtK;             // k -> Pass@k over tasks (k up to the samples per task)
  std::map<std::string, double> fastP;       // "0", "0.8", "1", "2" -> fraction of cases correct and faster than p x eager
  double geomeanSpeedup = 0;                 // over correct cases, eager / simulated
  double limitScore = 0;                     // mean over cases (0 for an incorrect case)
  std::map<std::string, int> failures;       // failure name -> rows
};

struct TaskScore {
  std::string task, category;
  int level = 0;
  int cases = 0, compiled = 0, correct = 0;
  double geomeanSpeedup = 0;  // over its correct cases
  double limitScore = 0;
  std::string firstFailure;   // the first failing row's message
};

struct Summary {
  Scores overall;
  std::map<std::string, Scores> byCategory;
  std::map<int, Scores> byLevel;
  std::vector<TaskScore> tasks;  // sorted by task name
  std::vector<Record> rows;      // sorted by recordKey
};

// Rows with failure GoldenError, NotEvaluable or NoSolution are reported, not scored.
Summary summarize(std::vector<Record> rows);

}  // namespace tilecraft::harness
