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
  double compAt1 = 0, passAt1 = 0;         // over tasks: a task compiles / passes if all its cases do
  std::map<int, double> compAtK, passAtK;  // k -> Comp@k / Pass@k over tasks (k = 1, 5, 10, ... up to the samples)
  // "0", "0.8", "1", "2" -> fraction of (task, sample) pairs correct on every case with a speedup over eager (the
  // geometric mean over its cases of eager / simulated) above p; fast_0 is the correctness rate.
  std::map<std::string, double> fastP;
  double geomeanSpeedup = 0;  // over correct cases, eager / simulated
  double limitScore = 0;      // mean over cases of limitScore() (0 for an incorrect case)
  double cannScore = 0;       // mean over tasks of CANN Bench's operator score (0..100, see cannOperatorScore)
  std::map<std::string, int> failures;  // failure name -> rows
};

struct TaskScore {
  std::string task, category;
  int level = 0;
  int cases = 0, compiled = 0, correct = 0;
  double geomeanSpeedup = 0;  // over its correct cases
  double limitScore = 0;
  double cannScore = 0;
  std::string eagerSource;   // the eager reference of its rows: "model", "measured", or "mixed"
  std::string firstFailure;  // the first failing row's failure and message
};

struct Summary {
  Scores overall;
  std::map<std::string, Scores> byCategory;
  std::map<int, Scores> byLevel;
  std::vector<TaskScore> tasks;  // sorted by task name
  std::vector<Record> rows;      // sorted by recordKey
};

// CANN Bench's operator score over one sample's cases: 0 if any case failed to compile, else
// 100 * (0.2 + mean over cases of correct_i * (0.3 + 0.5 * score_i)).
double cannOperatorScore(const std::vector<const Record*>& cases);

// Rows with failure GoldenError or NotEvaluable are reported, not scored: the harness, not the solution, could not
// judge them. A task without a solution (NoSolution) scores as not compiled.
Summary summarize(std::vector<Record> rows);

}  // namespace tilecraft::harness
