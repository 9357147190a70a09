// The verifier on hand-built IR: a well-formed kernel passes, and each broken rule gives its exact message.
#include "ir/verifier.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ir/builder.h"
#include "ir/printer.h"
#include "ir/tests/ir_fixture.h"

namespace tilecraft::ir {
namespace {

using testing::AddKernel;
using ::testing::ElementsAre;

TEST(Verifier, AcceptsTheAddKernel) {
  AddKernel f;
  EXPECT_THAT(verify(f.k), ElementsAre());
}

TEST(Verifier, ReadBeforeWrite) {
  AddKernel f;
  // Drop the load of %a: the add then reads a buffer nothing wrote.
  auto& body = f.k.node(f.copyin).body;
  body.erase(body.begin());
  EXPECT_THAT(verify(f.k), ElementsAre(fmt::format("add: Binary add #{}: reads %a before it is written", f.add)));
}

TEST(Verifier, LoadOutsideCopyIn) {
  AddKernel f;
  // Move the load of %a into the compute stage.
  auto& in = f.k.node(f.copyin).body;
  in.erase(in.begin());
  auto& compute = f.k.node(f.compute).body;
  compute.insert(compute.begin(), f.loadA);
  EXPECT_THAT(verify(f.k),
              ElementsAre(fmt::format("add: Load #{}: is in a compute stage; it belongs in copyin", f.loadA)));
}

TEST(Verifier, OpOutsideAnyStage) {
  AddKernel f;
  auto& compute = f.k.node(f.compute).body;
  compute.clear();
  f.k.node(f.tileLoop).body.insert(f.k.node(f.tileLoop).body.begin() + 1, f.add);
  EXPECT_THAT(verify(f.k), ElementsAre(fmt::format("add: Binary add #{}: must be inside a compute stage", f.add)));
}

TEST(Verifier, LoopInsideAStage) {
  AddKernel f;
  Builder b(f.k);
  uint32_t loop = b.addLoop({"i", false});
  NodeId inner = b.rangeLoop(loop, b.intConst(0), b.intConst(4), b.intConst(1));
  f.k.node(f.compute).body.push_back(inner);
  EXPECT_THAT(verify(f.k),
              ElementsAre(fmt::format("add: RangeLoop #{}: a compute stage holds straight-line ops only", inner)));
}

TEST(Verifier, DtypesMustAgree) {
  AddKernel f;
  f.k.buffers[f.b].dtype = DType::F32;
  // The load of %b now also disagrees with its tensor; both are reported, in node order.
  EXPECT_THAT(verify(f.k), ElementsAre(fmt::format("add: Load #{}: a load keeps the tensor's dtype", f.loadA + 1),
                                       fmt::format("add: Binary add #{}: dtypes differ: %c is f16, %b is f32", f.add)));
}

TEST(Verifier, VectorOperandMustBeInUb) {
  AddKernel f;
  f.k.buffers[f.b].mem = Mem::L1;
  EXPECT_THAT(verify(f.k),
              ElementsAre(fmt::format("add: Binary add #{}: operand %b is in L1; this op needs UB", f.add)));
}

TEST(Verifier, LoopFieldOutsideItsLoop) {
  AddKernel f;
  Builder b(f.k);
  uint32_t var = b.addVar({"s", Var::Kind::Device, DType::I64, 0, kNone});
  NodeId def = b.scalarDef(var, b.loopField(f.loop, Op::Start));
  f.k.node(f.k.body).body.push_back(def);
  EXPECT_THAT(verify(f.k), ElementsAre(fmt::format("add: ScalarDef #{}: uses loop 't' outside its body", def)));
}

TEST(Verifier, DequeBeforeEnque) {
  AddKernel f;
  f.k.buffers[f.a].queue = QueueKind::VecIn;
  Builder b(f.k);
  NodeId deque = b.sync(NodeKind::DeQue, f.a);
  auto& compute = f.k.node(f.compute).body;
  compute.insert(compute.begin(), deque);
  EXPECT_THAT(verify(f.k), ElementsAre(fmt::format("add: DeQue #{}: dequeues %a before any enque", deque)));
}

TEST(Verifier, SyncOnABufferWithoutQueue) {
  AddKernel f;
  Builder b(f.k);
  NodeId enque = b.sync(NodeKind::EnQue, f.a);
  f.k.node(f.copyin).body.push_back(enque);
  EXPECT_THAT(verify(f.k), ElementsAre(fmt::format("add: EnQue #{}: %a has no queue (none)", enque)));
}

TEST(Verifier, AFlagOrdersTwoDifferentPipes) {
  AddKernel f;
  Builder b(f.k);
  // A flag needs no queue (it may order a TBuf inside one stage); its pipes must be two different ones.
  NodeId ok = b.flag(f.a, Pipe::MTE2, Pipe::S);
  f.k.node(f.copyin).body.push_back(ok);
  EXPECT_THAT(verify(f.k), ElementsAre());
  NodeId bad = b.flag(f.a, Pipe::MTE2, Pipe::S);
  f.k.node(bad).toPipe = Pipe::MTE2;
  f.k.node(f.copyin).body.push_back(bad);
  EXPECT_THAT(verify(f.k),
              ElementsAre(fmt::format("add: Flag #{}: a flag on %a orders pipe MTE2 with pipe MTE2", bad)));
}

TEST(Printer, AFlagNamesItsPipesAndBuffer) {
  AddKernel f;
  Builder b(f.k);
  f.k.node(f.copyin).body.push_back(b.flag(f.a, Pipe::V, Pipe::S));
  EXPECT_NE(printKernel(f.k).find("      flag V->S %a\n"), std::string::npos) << printKernel(f.k);
}

TEST(Verifier, PlannedOffsetsAreAlignedAndInside) {
  AddKernel f;
  f.k.planned = true;
  f.k.buffers[f.a].offset = 0;
  f.k.buffers[f.b].offset = 8200;           // not a multiple of 32
  f.k.buffers[f.c].offset = 196608 - 4096;  // 8192 bytes do not fit below 192 KiB
  EXPECT_THAT(verify(f.k), ElementsAre("add: buffer %b at offset 8200 in UB is not 32-byte aligned",
                                       "add: buffer %c ends at 200704 past the 196608 bytes of UB"));
}

// The InitBuffer list is what the emitter prints: calls follow each other from 0, and every buffer is inside its
// call (compute-only buffers inside their memory's TBuf).
TEST(Verifier, PlannedBuffersSitInsideTheirInitBuffer) {
  AddKernel f;
  f.k.planned = true;
  f.k.buffers[f.a].offset = 0;
  f.k.buffers[f.b].offset = 8192;
  f.k.buffers[f.c].offset = 0;
  f.k.pipe = {PipeBuffer{Mem::UB, kNone, 0, 16384, 1}};
  EXPECT_THAT(verify(f.k), ElementsAre());
  f.k.pipe[0].offset = 32;  // a call must start where the earlier ones end
  f.k.buffers[f.a].offset = 32;
  f.k.buffers[f.b].offset = 16384;  // past the TBuf's end
  EXPECT_THAT(verify(f.k),
              ElementsAre("add: InitBuffer #0 in UB at offset 32; the earlier calls end at 0",
                          "add: buffer %b at offset 16384 (8192 x1) is outside its InitBuffer #0 (16384 x1 at 32)",
                          "add: buffer %c at offset 0 (8192 x1) is outside its InitBuffer #0 (16384 x1 at 32)"));
  f.k.pipe.clear();
  f.k.pipe.push_back(PipeBuffer{Mem::L1, kNone, 0, 32, 1});  // no TBuf in UB
  EXPECT_THAT(verify(f.k), ::testing::Contains("add: buffer %a has no InitBuffer in the plan"));
}

TEST(Verifier, L0BuffersAlignTo512Bytes) {
  Kernel k;
  k.name = "mm";
  Builder b(k);
  k.params.push_back({"w", TensorRole::In, DType::F16, {Extent::constant(16), Extent::constant(16)}, kNone});
  k.body = b.block();
  std::vector<Extent> shape = {Extent::constant(16), Extent::constant(16)};
  BufferId l1 = b.addBuffer("w1", Mem::L1, DType::F16, shape);
  BufferId a0 = b.addBuffer("a0", Mem::L0A, DType::F16, shape);
  NodeId in = b.stage(Stage::CopyIn);
  b.append(in, b.load(l1, 0, {GmIndex{}, GmIndex{}}, 0));
  NodeId compute = b.stage(Stage::Compute);
  b.append(compute, b.copy(a0, l1, false));
  b.append(k.body, in);
  b.append(k.body, compute);
  k.planned = true;
  k.buffers[l1].offset = 0;
  k.buffers[a0].offset = 512;
  EXPECT_THAT(verify(k), ElementsAre());
  k.buffers[a0].offset = 256;  // 32-byte aligned, which is enough for UB and L1 but not for L0A
  EXPECT_THAT(verify(k), ElementsAre("mm: buffer %a0 at offset 256 in L0A is not 512-byte aligned"));
}

TEST(Verifier, TransposeOnlyTowardsL0) {
  AddKernel f;
  Builder b(f.k);
  BufferId d = b.addBuffer("d", Mem::UB, DType::F16, f.k.buffer(f.a).shape);
  NodeId copy = b.copy(d, f.a, false);
  f.k.node(copy).transpose = true;
  f.k.node(f.compute).body.push_back(copy);
  EXPECT_THAT(verify(f.k), ElementsAre(fmt::format(
                               "add: Copy #{}: transposed destination %d is in UB; this op needs L0A or L0B", copy)));
}

TEST(Verifier, BodyMustBeABlock) {
  Kernel k;
  k.name = "empty";
  EXPECT_THAT(verify(k), ElementsAre("empty: the kernel body is not a Block"));
}

}  // namespace
}  // namespace tilecraft::ir
