// The cube path of the AscendC emitter (emit_cube.cpp): GM -> L1 (DataCopy with Nd2NzParams), L1 -> L0A/L0B
// (LoadData), Mmad into L0C, L0C -> GM (Fixpipe), and the hand-over of an L0C tile to the vector cores of a mixed
// kernel through a GM workspace. Internal to codegen/.
#pragma once

#include <string>

#include "codegen/emit_context.h"

namespace tilecraft::codegen::detail {

/// A 2-D GM view as emit_copy.cpp resolves it: element offset, rows x cols, GM row stride (elements).
struct CubeView {
  std::string offset;
  std::string rows;
  std::string cols;
  std::string rowStride;
};

/// True for the ops the cube path emits: zeros in L0C, copies into L0A/L0B, matmul, and copies out of L0C.
bool isCubeOp(const EmitContext& c, const ir::Node& n);
void emitCubeOp(EmitContext& c, CodePrinter& p, const ir::Node& n);
/// load(x[...], to=L1): ND in GM -> NZ in L1.
void emitNd2Nz(EmitContext& c, CodePrinter& p, const ir::Node& load, const CubeView& v);
/// store(y[...], acc) from L0C: Fixpipe NZ -> ND, converting f32 to the tensor's dtype.
void emitFixpipe(EmitContext& c, CodePrinter& p, const ir::Node& store, const CubeView& v);

// ---- mixed kernels ----------------------------------------------------------------------------------------------
/// A stage runs on the cube core when it touches L1 or L0 (an L0C -> UB copy belongs to the vector side).
bool isCubeStage(const ir::Kernel& k, ir::NodeId stage);
/// The L0C -> UB copy in a vector stage, or kNone.
ir::NodeId workspaceCopy(const ir::Kernel& k, ir::NodeId stage);
/// The AIC half of an L0C -> UB copy: Fixpipe of the accumulator into this cube core's workspace slot.
void emitWorkspaceStore(EmitContext& c, CodePrinter& p, const ir::Node& copy);
/// The tile loop whose rows the two vector cores of a block share (the L0C tile's outer extent), or kNone.
uint32_t sharedRowLoop(const ir::Kernel& k);
/// Elements of one cube core's workspace slot (the largest L0C tile handed to the vector cores), 0 if none.
int64_t workspaceSlotElems(const ir::Kernel& k);
/// Reports cube buffers the emitter cannot lay out (fractal padding); false if any.
bool checkCubeBuffers(EmitContext& c);

}  // namespace tilecraft::codegen::detail
