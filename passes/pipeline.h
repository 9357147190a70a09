// The pass pipeline: an ordered list of named passes (the order and its reasons are in pipeline.cpp), with
// the verifier after each, printing after a chosen pass or after all, and per-pass timing.
#pragma once

#include <iosfwd>
#include <optional>
#include <span>
#include <string>

#include "ir/ir.h"
#include "passes/passes.h"

namespace tilecraft::passes {

/// Time source for --time-passes, behind an interface so tests can use a fake.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual double seconds() = 0;
};
class SteadyClock : public Clock {
 public:
  double seconds() override;
};

struct PassInfo {
  const char* name;
  void (*run)(ir::Kernel&, PassContext&);
  const char* why;  // why it runs where it does
};

/// The passes in the order they run.
std::span<const PassInfo> pipelinePasses();
/// "lower" (the IR straight from lowering) or a pass name; nullopt-safe lookup for --emit=ir-after=PASS.
bool isPipelineStage(const std::string& name);

struct PipelineOptions {
  std::string stopAfter;                  // empty: run everything; "lower": no passes
  std::ostream* printAfterAll = nullptr;  // IR after lowering and after every pass
  std::ostream* timings = nullptr;        // per-pass times (stderr)
  Clock* clock = nullptr;
  bool verify = true;  // run the verifier after every pass (a failure is an internal error)
};

/// Runs the pipeline on every kernel. Returns false when a pass reported an error (in `diagnostics`) or the
/// verifier failed (its messages go to `verifierErrors`).
bool runPipeline(ir::Module& module, const PipelineOptions& options, support::DiagnosticEngine& diagnostics,
                 std::vector<std::string>* verifierErrors);

}  // namespace tilecraft::passes
