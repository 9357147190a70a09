// A Summary with every part a report shows, built by hand (not by summarize()) so report tests depend only on
// the renderers. Its names are hostile on purpose: a task folder's name is a stranger's text.
#pragma once

#include <string>
#include <utility>

#include "harness/metrics.h"

namespace tilecraft::harness::testing {

inline const char* const kHostileTask = "evil</script><script>document.title='pwned'</script>\"'&";

inline Record fixtureRow(const std::string& task, const std::string& caseId, bool correct, Failure failure,
                         double simUs, double eagerUs) {
  Record r;
  r.task = task;
  r.category = task == "softmax" ? "activation" : "math";
  r.level = task == "softmax" ? 2 : 1;
  r.caseId = caseId;
  r.solutionKind = "dsl";
  r.instantiation = "f16";
  r.compiled = failure != Failure::Syntax;
  r.correct = correct;
  r.failure = failure;
  r.message = correct ? "" : std::string(failureName(failure)) + " in " + task;
  r.simUs = simUs;
  r.eagerUs = eagerUs;
  r.limitUs = simUs / 2;
  r.bottleneck = "MTE2";
  if (r.compiled) r.pipeBusyUs = {{"MTE2", simUs * 0.8}, {"V", simUs * 0.5}, {"MTE3", simUs * 0.2}, {"S", 0.1}};
  return r;
}

inline Summary fixtureSummary() {
  Summary s;
  s.rows = {fixtureRow("add", "0", true, Failure::None, 10, 20), fixtureRow("add", "1", true, Failure::None, 20, 30),
            fixtureRow(kHostileTask, "0", false, Failure::Syntax, 0, 0),
            fixtureRow("softmax", "0", true, Failure::None, 40, 30),
            fixtureRow("softmax", "1", false, Failure::NumericMismatch, 50, 40)};
  s.overall.tasks = 3;
  s.overall.cases = 5;
  s.overall.samples = 5;
  s.overall.compAt1 = 2.0 / 3;
  s.overall.passAt1 = 1.0 / 3;
  s.overall.passAtK = {{1, 1.0 / 3}};
  s.overall.fastP = {{"0", 0.6}, {"0.8", 0.6}, {"1", 0.4}, {"2", 0}};
  s.overall.geomeanSpeedup = 1.1447;
  s.overall.limitScore = 0.4321;
  s.overall.cannScore = 41.25;
  s.overall.compAtK = {{1, 2.0 / 3}};
  s.overall.failures = {{"syntax", 1}, {"numeric_mismatch", 1}};
  Scores one = s.overall;
  one.tasks = 2;
  s.byLevel = {{1, one}, {2, s.overall}};
  s.byCategory = {{"activation", s.overall}, {"math", one}};
  auto task = [](std::string name, std::string category, int level, int cases, int compiled, int correct,
                 double speedup, double limit, std::string failure) {
    TaskScore t;
    t.task = std::move(name);
    t.category = std::move(category);
    t.level = level;
    t.cases = cases;
    t.compiled = compiled;
    t.correct = correct;
    t.geomeanSpeedup = speedup;
    t.limitScore = limit;
    t.cannScore = 100 * (0.2 + 0.8 * limit);
    t.firstFailure = std::move(failure);
    return t;
  };
  s.tasks = {
      task("add", "math", 1, 2, 2, 2, 1.7321, 0.61, ""),
      task(kHostileTask, "math", 1, 1, 0, 0, 0, 0, "syntax: expected ')' <here>"),
      task("softmax", "activation", 2, 2, 2, 1, 0.75, 0.2, "numeric_mismatch: mean rel error 0.1 > tau"),
  };
  return s;
}

}  // namespace tilecraft::harness::testing
