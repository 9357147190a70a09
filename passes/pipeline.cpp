#include "passes/pipeline.h"

#include <fmt/format.h>

#include <chrono>
#include <ostream>

#include "ir/printer.h"
#include "ir/verifier.h"

namespace tilecraft::passes {

double SteadyClock::seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

namespace {

// The order is the point of this file: each pass needs facts the earlier ones establish.
constexpr PassInfo kPasses[] = {
    {"core-split", &coreSplit,
     "first: every later pass works on this core's share; tile loops over a split read its start/len, which "
     "only exist once the split is resolved into host tiling fields and the block index"},
    {"tiling", &tiling,
     "needs the per-core length from core-split to state trip counts and tails; must precede queue insertion "
     "and planning, because tails decide DataCopyPad and the loop's buffers= decides double buffering"},
    {"cache-hints", &cacheHints,
     "needs the final loop structure around each load (the tile loops and the core split they walk, from "
     "lowering and core-split) and nothing later; it only marks tensors, which the emitter prints"},
    {"legalize", &legalize,
     "instruction selection needs the final shapes and each load's tail (tiling), which decide whether rows are "
     "contiguous and padded; it runs before queue insertion and planning because an instruction form may need "
     "buffers or pipes of its own, which those passes must see"},
    {"queue-insertion", &queueInsertion,
     "decides which buffers are queues and how many copies each has (double buffering) and places "
     "DeQue/Free, "
     "which set lifetimes; so it runs before buffer planning, whose sizes and lifetimes depend on both"},
    {"buffer-plan", &bufferPlan,
     "last: offsets are the final decision and need every buffer, its copy count and its full lifetime; the "
     "capacity check must see the real aligned layout"},
};

}  // namespace

std::span<const PassInfo> pipelinePasses() { return kPasses; }

bool isPipelineStage(const std::string& name) {
  if (name == "lower") return true;
  for (const PassInfo& p : kPasses) {
    if (name == p.name) return true;
  }
  return false;
}

bool runPipeline(ir::Module& module, const PipelineOptions& options, support::DiagnosticEngine& diagnostics,
                 std::vector<std::string>* verifierErrors) {
  auto check = [&](const char* after) {
    if (!options.verify) return true;
    std::vector<std::string> errors = ir::verify(module);
    for (std::string& e : errors) {
      if (verifierErrors) verifierErrors->push_back(fmt::format("after {}: {}", after, e));
    }
    return errors.empty();
  };
  if (options.printAfterAll) *options.printAfterAll << "// ---- IR after lower ----\n" << ir::printModule(module);
  if (!check("lower")) return false;
  if (options.stopAfter == "lower") return true;
  for (const PassInfo& pass : kPasses) {
    PassContext context{diagnostics};
    double begin = options.clock ? options.clock->seconds() : 0;
    for (ir::Kernel& k : module.kernels) pass.run(k, context);
    double end = options.clock ? options.clock->seconds() : 0;
    if (options.timings) *options.timings << fmt::format("pass {:<16} {:8.3f} ms\n", pass.name, (end - begin) * 1e3);
    if (diagnostics.hasErrors()) return false;
    if (options.printAfterAll) {
      *options.printAfterAll << fmt::format("// ---- IR after {} ----\n", pass.name) << ir::printModule(module);
    }
    if (!check(pass.name)) return false;
    if (options.stopAfter == pass.name) return true;
  }
  return true;
}

}  // namespace tilecraft::passes
