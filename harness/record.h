// One result row per (task, case, sample): what `tilecraft bench` appends to results.jsonl as each finishes,
// what --resume reads back, and what every report and `bench merge` is computed from. Nothing else is.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilecraft::harness {

// Where a sample failed, as the report's failure taxonomy counts it.
enum class Failure {
  None,
  Syntax,           // the DSL front end or C++ parse errors
  UnknownApi,       // "no member named", undeclared identifiers
  Signature,        // no matching function / overload
  Dtype,            // dtype not supported / conversion errors
  MemoryCheck,      // alignment, out of bounds, capacity, never-written reads
  Hazard,           // a missing sync between pipes, queue misuse
  NumericMismatch,  // ran, but the values are wrong
  AntiCheat,        // zeros / constant / copied input where the golden is not
  Crash,
  Timeout,
  SandboxViolation,  // includes a forged verdict
  GoldenError,       // the task's golden failed: not the solution's fault, not counted against it
  NotEvaluable,      // the harness cannot evaluate this (solution kind, task feature): said why
  NoSolution,        // no solution folder for the task
};
const char* failureName(Failure f);
std::optional<Failure> failureFromName(const std::string& name);

struct Record {
  std::string task;
  std::string category;
  int level = 0;
  std::string caseId;
  int sample = 0;
  std::string solutionKind;   // "dsl", "ascendc", "none"
  std::string instantiation;  // e.g. "f16", the binding's name for it
  bool compiled = false;
  bool correct = false;  // on both seeds
  Failure failure = Failure::None;
  std::string message;  // one line, for the report
  // Correctness figures of the worse seed.
  std::string rule;  // "cann" or "allclose"
  double meanRelError = 0, maxRelError = 0, tau = 0;
  // Speed, when it ran correctly: simulated device time on the perf model and the references.
  double simUs = 0;
  double limitUs = 0;
  double eagerUs = 0;
  std::string eagerSource;                   // "model" or "measured"
  std::string bottleneck;                    // the kernel's bottleneck pipe on the timeline
  std::map<std::string, double> pipeBusyUs;  // per pipe on the slowest core
  double wallSeconds = 0;                    // what evaluating this row cost the harness
  double kernelSeconds = 0;                  // of which building (the row that built the kernel) and running it
};

// The row's key, "task/case/sample": unique within a run, sorts rows for reports.
std::string recordKey(const Record& r);

// One line of JSON (no newline). parseRecord: nullopt with `error` on a malformed line.
std::string recordToJson(const Record& r);
std::optional<Record> parseRecord(const std::string& line, std::string* error);

}  // namespace tilecraft::harness
