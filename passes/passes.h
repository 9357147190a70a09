// The passes after lowering, one per file. Each takes one kernel and rewrites it in place; user-facing
// problems (a plan that does not fit) go to the diagnostics, broken invariants are internal asserts. The
// order they run in, and why, is in pipeline.cpp.
#pragma once

#include <map>
#include <vector>

#include "ir/ir.h"
#include "support/diagnostic.h"

namespace tilecraft::passes {

struct PassContext {
  support::DiagnosticEngine& diagnostics;
};

/// core-split: per-core start/length of every split from two host tiling fields (base = E / cores,
/// rem = E % cores); the first `rem` cores take one more element, so the remainder is spread, not piled on
/// one core.
void coreSplit(ir::Kernel& kernel, PassContext& context);

/// tiling: the trip count and tail length of every tile loop, and which GM copies may be partial or unaligned
/// (they become DataCopyPad).
void tiling(ir::Kernel& kernel, PassContext& context);

/// cache-hints: marks the input tensors whose every byte one core reads once (`streamed`); they are read
/// around L2 (SetL2CacheHint), which only pays off for data read again.
void cacheHints(ir::Kernel& kernel, PassContext& context);

/// legalize: instruction selection for vector ops on multi-row tiles (ir::VecForm): one instruction over the
/// tile's contiguous rows where the operands share a row layout and their padding is written, else one per row.
void legalize(ir::Kernel& kernel, PassContext& context);

/// queue-insertion: which buffers cross stages through which TQue position (VECIN, VECOUT, both), how many
/// copies each has (the loop's buffers=), TBuf for compute-only values and work buffers, and the AllocTensor
/// / EnQue / DeQue / FreeTensor protocol around the stages.
void queueInsertion(ir::Kernel& kernel, PassContext& context);

/// buffer-plan: an offset for every buffer in its memory (32-byte aligned, 512 for L0A/L0B), reusing the
/// space of buffers whose lifetimes do not overlap, then the capacity check on the real layout.
void bufferPlan(ir::Kernel& kernel, PassContext& context);

/// Where each node sits in the tree: its parent statement list owner and its enclosing stage.
struct TreeIndex {
  std::vector<ir::NodeId> parent;  // per node; kNone for the kernel body and expressions
  std::vector<ir::NodeId> stage;   // per node: the Stage it is in, or kNone
  std::vector<ir::NodeId> order;   // statements in program order (pre-order)
};
TreeIndex indexTree(const ir::Kernel& kernel);

}  // namespace tilecraft::passes
