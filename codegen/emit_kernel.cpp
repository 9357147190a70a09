// The kernel class: members (TPipe, one TQue per handed-over buffer, one TBuf for everything compute-only,
// GlobalTensors, the loop state), Init, Process (the DSL's loop nest, calling one method per stage block) and the
// stage methods, each in the official CopyIn / Compute / CopyOut shape.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "codegen/emit_context.h"
#include "codegen/emit_cube.h"
#include "ir/check.h"
#include "support/assert.h"

namespace tilecraft::codegen::detail {

using ir::BufferId;
using ir::NodeId;
using ir::NodeKind;

namespace {

bool isQueue(const ir::Buffer& b) { return b.queue != ir::QueueKind::None && b.queue != ir::QueueKind::Calc; }
bool mixedKernel(const ir::Kernel& k) { return k.coreKind == ir::CoreKind::Mixed; }

const char* queueType(ir::QueueKind q) {
  switch (q) {
    case ir::QueueKind::VecIn: return "TQue<QuePosition::VECIN, 1>";
    case ir::QueueKind::VecOut: return "TQue<QuePosition::VECOUT, 1>";
    case ir::QueueKind::VecInOut: return "TQueBind<TPosition::VECIN, TPosition::VECOUT, 1>";
    case ir::QueueKind::A1: return "TQue<QuePosition::A1, 1>";
    case ir::QueueKind::B1: return "TQue<QuePosition::B1, 1>";
    case ir::QueueKind::A2: return "TQue<QuePosition::A2, 1>";
    case ir::QueueKind::B2: return "TQue<QuePosition::B2, 1>";
    case ir::QueueKind::CO1: return "TQue<QuePosition::CO1, 1>";
    default: return nullptr;
  }
}

class KernelEmitter {
 public:
  KernelEmitter(EmitContext& c, CodePrinter& p) : c_(c), p_(p), k_(c.k) {}

  void run() {
    if (!checkCubeBuffers(c_)) return;
    rowLoop_ = mixedKernel(k_) ? sharedRowLoop(k_) : ir::kNone;
    collectStages(k_.node(k_.body).body, false);
    planMembers();
    p_.open("class " + c_.className);
    access(" public:");
    p_.line(fmt::format("__aicore__ inline {}() {{}}", c_.className));
    init();
    process();
    p_.blank();
    access(" private:");
    for (const StageInfo& s : stages_) stageMethod(s);
    members();
    p_.close(";");
  }

 private:
  static constexpr BufferId kNoBuffer = ir::kNone;
  struct StageInfo {
    NodeId node;
    std::string name;
  };

  void access(const char* label) {
    p_.dedent();
    p_.line(label);
    p_.indent();
  }

  void collectStages(const std::vector<NodeId>& stmts, bool inStage) {
    for (NodeId id : stmts) {
      const ir::Node& n = k_.node(id);
      if (n.kind == NodeKind::Stage) {
        stages_.push_back({id, ""});
        continue;
      }
      if (ir::isSyncKind(n.kind) && !inStage) {
        for (BufferId b : n.srcs) c_.setMember(b);
      }
      if (n.kind == NodeKind::TileLoop || n.kind == NodeKind::RangeLoop || n.kind == NodeKind::If) {
        collectStages(n.body, false);
        collectStages(n.orelse, false);
      }
    }
    if (inStage) return;
    // Stage method names: CopyIn, Compute, CopyOut; numbered when a kind occurs more than once.
    std::map<ir::Stage, int> total, seen;
    for (const StageInfo& s : stages_) total[k_.node(s.node).stage]++;
    for (StageInfo& s : stages_) {
      ir::Stage kind = k_.node(s.node).stage;
      const char* base = kind == ir::Stage::CopyIn ? "CopyIn" : kind == ir::Stage::Compute ? "Compute" : "CopyOut";
      int index = ++seen[kind];
      s.name = total[kind] > 1 ? fmt::format("{}{}", base, index) : base;
    }
  }

  void buffersOf(const ir::Node& n, std::set<BufferId>& out) const {
    if (n.dst != ir::kNone) out.insert(n.dst);
    if (n.work != ir::kNone && usesWork(n)) out.insert(n.work);
    for (BufferId b : n.srcs) out.insert(b);
  }

  // A reduction over the rows folds them elementwise and needs no work buffer. Silu takes no sharedTmpBuffer: its
  // planned work buffer only keeps dst apart from src (CANN's Silu reads src after writing dst).
  bool usesWork(const ir::Node& n) const {
    if (n.kind == NodeKind::Unary && n.op == ir::Op::Silu) return false;
    if (n.kind != NodeKind::Reduce) return true;
    // f16 sums and means fold on the scalar unit in float (emit_ops.cpp), without ReduceSum's work buffer.
    bool half = k_.buffer(n.srcs[0]).dtype == ir::DType::F16 || k_.buffer(n.srcs[0]).dtype == ir::DType::BF16;
    if (half && (n.op == ir::Op::ReduceSum || n.op == ir::Op::ReduceMean)) return false;
    int rank = static_cast<int>(k_.buffer(n.srcs[0]).shape.size());
    return n.axis < 0 || n.axis == rank - 1;
  }

  // A queue buffer whose LocalTensor must outlive one stage method (dequeued in Process, or used in a stage that
  // neither allocates nor dequeues it) is a class member; every other one is a local, as in the samples.
  void planMembers() {
    for (const StageInfo& s : stages_) {
      std::set<BufferId> used, declared;
      for (NodeId id : k_.node(s.node).body) {
        const ir::Node& n = k_.node(id);
        buffersOf(n, used);
        if (n.kind == NodeKind::Alloc || n.kind == NodeKind::DeQue) declared.insert(n.srcs[0]);
      }
      for (BufferId b : used) {
        if (isQueue(k_.buffer(b)) && !declared.count(b)) c_.setMember(b);
      }
    }
    // Init() is the planner's InitBuffer list (ir::Kernel::pipe), printed as it is: the TPipe hands each memory
    // out in call order, so the planned offsets are where the buffers land. A compute-only buffer is a
    // GetWithOffset into its memory's TBuf.
    calcBuf_.assign(6, -1);
    for (size_t i = 0; i < k_.pipe.size(); ++i) {
      if (k_.pipe[i].queue == kNoBuffer) calcBuf_[static_cast<size_t>(k_.pipe[i].mem)] = static_cast<int>(i);
    }
  }

  /// The TBuf of a memory's compute-only buffers: "calcBuf_" for UB, "calcBufL1_" ... for the others.
  static std::string calcBufName(dsl::Mem mem) {
    return mem == dsl::Mem::UB ? "calcBuf_" : fmt::format("calcBuf{}_", dsl::memName(mem));
  }

  void init() {
    std::string params;
    for (uint32_t i : tensorParams(k_)) params += fmt::format("GM_ADDR {}, ", k_.params[i].name);
    if (mixedKernel(k_)) params += "GM_ADDR workspace, ";
    p_.open(fmt::format("__aicore__ inline void Init({}const {}& tiling)", params, c_.tilingName));
    p_.line("tiling_ = tiling;");
    if (mixedKernel(k_)) {
      // The cube core of block b and its two vector cores (AIV index 2b, 2b + 1) walk the same grid blocks; each
      // cube core has its own workspace slot for the tile it hands over.
      p_.line("cubeBlock_ = ASCEND_IS_AIV ? GetBlockIdx() / GetTaskRation() : GetBlockIdx();");
      p_.line(
          fmt::format("workspaceGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace), "
                      "static_cast<uint64_t>(GetBlockNum()) * {});",
                      workspaceSlotElems(k_)));
    }
    for (uint32_t i : tensorParams(k_)) {
      const ir::Param& prm = k_.params[i];
      std::string size;
      for (const ir::Extent& e : prm.shape) {
        if (e.kind == ir::Extent::Kind::Const && e.value == 1 && prm.shape.size() > 1) continue;
        size += (size.empty() ? "" : " * ") + c_.extent(e);
      }
      p_.line(fmt::format("{}.SetGlobalBuffer(reinterpret_cast<__gm__ {}*>({}), static_cast<uint64_t>({}));",
                          c_.gmMember(i), EmitContext::cppType(prm.dtype), prm.name, size.empty() ? "1" : size));
      if (prm.streamed) {
        p_.line(fmt::format("{}.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);  // read once: around L2 (cache-hints)",
                            c_.gmMember(i)));
      }
    }
    // The emitted layout must fit each memory; the planner refused every layout that does not, so one that gets
    // here over capacity is a compiler bug, never a run-time overflow in InitBuffer.
    std::array<int64_t, 6> initBytes{};
    for (const ir::PipeBuffer& pb : k_.pipe) {
      std::string guard;
      if (mixedKernel(k_)) guard = pb.mem == dsl::Mem::UB ? "if (ASCEND_IS_AIV) " : "if (ASCEND_IS_AIC) ";
      int64_t& used = initBytes[static_cast<size_t>(pb.mem)];
      TC_ASSERT(pb.offset == used,
                "kernel '{}': InitBuffer in {} planned at offset {}, but the earlier calls end at {}", k_.name,
                dsl::memName(pb.mem), pb.offset, used);
      used += pb.bytes * pb.copies;
      if (pb.queue == kNoBuffer) {
        p_.line(fmt::format("{}pipe_.InitBuffer({}, {});  // compute-only values and work buffers", guard,
                            calcBufName(pb.mem), pb.bytes));
        continue;
      }
      p_.line(fmt::format("{}pipe_.InitBuffer({}, {}, {});  // {} per copy", guard, c_.queueMember(pb.queue), pb.copies,
                          pb.bytes, shapeText(pb.queue)));
    }
    for (dsl::Mem mem : {dsl::Mem::UB, dsl::Mem::L1, dsl::Mem::L0A, dsl::Mem::L0B, dsl::Mem::L0C}) {
      int64_t used = initBytes[static_cast<size_t>(mem)];
      TC_ASSERT(used <= dsl::memCapacityBytes(mem),
                "kernel '{}': the emitted InitBuffer calls take {} bytes of {}, which holds {} (the planner's layout "
                "ends at {})",
                k_.name, used, dsl::memName(mem), dsl::memCapacityBytes(mem),
                k_.plannedBytes[static_cast<size_t>(mem)]);
    }
    p_.close();
  }

  std::string shapeText(BufferId b) const {
    const ir::Buffer& buf = k_.buffer(b);
    std::string s = std::string(dsl::dtypeName(buf.dtype)) + "[";
    for (size_t i = 0; i < buf.shape.size(); ++i) {
      const ir::Extent& e = buf.shape[i];
      if (i) s += ", ";
      s += e.kind == ir::Extent::Kind::Const ? std::to_string(e.value)
           : e.kind == ir::Extent::Kind::Dim ? k_.vars[e.ref].name
                                             : k_.loops[e.ref].name;
    }
    return s + "]";
  }

  void process() {
    p_.open("__aicore__ inline void Process()");
    c_.resetLocals();
    c_.resetComment();
    statements(k_.node(k_.body).body);
    p_.setTileLine(0);
    if (mixedKernel(k_)) {
      p_.line("// The last tile's acknowledgements from the vector cores.");
      p_.line("if (ASCEND_IS_AIC && workspaceBusy_) CrossCoreWaitFlag<2, PIPE_FIX>(kVectorDone);");
    }
    p_.close();
  }

  // A stage of a mixed kernel runs on the core kind it needs. The L0C -> UB copy is a hand-over through this cube
  // core's workspace slot: the cube core waits until both vector cores have read the previous tile (flag
  // kVectorDone), Fixpipes the tile there and signals kCubeReady; each vector core waits for it, runs the stage
  // (which reads its rows of the slot) and acknowledges. Every set is matched by one wait on the other side.
  void mixedStage(NodeId id, const std::string& name) {
    std::string guard = rowLoop_ == ir::kNone ? "GetSubBlockIdx() == 0" : c_.loopMember(rowLoop_, "Len") + " > 0";
    if (isCubeStage(k_, id)) {
      p_.line(fmt::format("if (ASCEND_IS_AIC) {}();", name));
      return;
    }
    NodeId copy = workspaceCopy(k_, id);
    if (copy == ir::kNone) {
      p_.line(fmt::format("if (ASCEND_IS_AIV && {}) {}();", guard, name));
      return;
    }
    p_.open("if (ASCEND_IS_AIC)");
    p_.line("if (workspaceBusy_) CrossCoreWaitFlag<2, PIPE_FIX>(kVectorDone);");
    p_.line("workspaceBusy_ = true;");
    c_.comment(p_, k_.node(copy).line);
    emitWorkspaceStore(c_, p_, k_.node(copy));
    p_.line("CrossCoreSetFlag<2, PIPE_FIX>(kCubeReady);");
    p_.dedent();
    p_.line("} else {");
    p_.indent();
    p_.line("CrossCoreWaitFlag<2, PIPE_MTE2>(kCubeReady);");
    p_.line(fmt::format("if ({}) {}();", guard, name));
    p_.line("CrossCoreSetFlag<2, PIPE_MTE2>(kVectorDone);");
    p_.close();
  }

  void statements(const std::vector<NodeId>& stmts) {
    for (NodeId id : stmts) statement(id);
  }

  void statement(NodeId id) {
    const ir::Node& n = k_.node(id);
    p_.setTileLine(n.line);
    switch (n.kind) {
      case NodeKind::CoreSplit: {
        TILECRAFT_CHECK(n.args.size() >= 3, "emitting a split that core-split did not resolve");
        c_.comment(p_, n.line);
        p_.line(fmt::format("{} = {};", c_.splitMember(n.ref, "Start"), c_.scalar(n.args[1], Where::Device)));
        p_.line(fmt::format("{} = {};", c_.splitMember(n.ref, "Len"), c_.scalar(n.args[2], Where::Device)));
        return;
      }
      case NodeKind::TileLoop: {
        TILECRAFT_CHECK(n.args.size() >= 4, "emitting a tile loop that tiling did not resolve");
        c_.comment(p_, n.line);
        std::string idx = c_.loopMember(n.ref, "Idx"), count = c_.loopMember(n.ref, "Count");
        p_.line(fmt::format("{} = {};", count, c_.scalar(n.args[2], Where::Device)));
        p_.open(fmt::format("for ({} = 0; {} < {}; ++{})", idx, idx, count, idx));
        p_.line(fmt::format("{} = {} + {} * {};", c_.loopMember(n.ref, "Start"), c_.scalar(n.args[0], Where::Device),
                            idx, n.size));
        p_.line(fmt::format("{} = {} + 1 == {} ? {} : {};", c_.loopMember(n.ref, "Len"), idx, count,
                            c_.scalar(n.args[3], Where::Device), n.size));
        if (mixedKernel(k_) && n.ref == rowLoop_) {
          // The two vector cores of the block take the tile's rows in halves (the second may get none).
          std::string start = c_.loopMember(n.ref, "Start"), len = c_.loopMember(n.ref, "Len");
          p_.open("if (ASCEND_IS_AIV)");
          p_.line(fmt::format("const int64_t firstHalf = TcCdiv({}, 2);", len));
          p_.line("subRowOffset_ = GetSubBlockIdx() == 0 ? 0 : firstHalf;");
          p_.line(fmt::format("{} += subRowOffset_;", start));
          p_.line(fmt::format("{} = GetSubBlockIdx() == 0 ? firstHalf : {} - firstHalf;", len, len));
          p_.close();
        }
        c_.resetComment();
        statements(n.body);
        p_.close();
        c_.resetComment();
        return;
      }
      case NodeKind::RangeLoop: {
        c_.comment(p_, n.line);
        std::string idx = c_.loopMember(n.ref, "Idx");
        p_.open(fmt::format("for ({} = {}; {} < {}; {} += {})", idx, c_.scalar(n.args[0], Where::Device), idx,
                            c_.scalar(n.args[1], Where::Device), idx, c_.scalar(n.args[2], Where::Device)));
        c_.resetComment();
        statements(n.body);
        p_.close();
        c_.resetComment();
        return;
      }
      case NodeKind::If: {
        c_.comment(p_, n.line);
        p_.open(fmt::format("if ({})", c_.scalar(n.args[0], Where::Device)));
        c_.resetComment();
        statements(n.body);
        if (!n.orelse.empty()) {
          p_.dedent();
          p_.line("} else {");
          p_.indent();
          c_.resetComment();
          statements(n.orelse);
        }
        p_.close();
        c_.resetComment();
        return;
      }
      case NodeKind::Stage:
        for (const StageInfo& s : stages_) {
          if (s.node != id) continue;
          if (mixedKernel(k_)) {
            mixedStage(id, s.name);
          } else {
            p_.line(s.name + "();");
          }
        }
        return;
      case NodeKind::ScalarDef:
        c_.comment(p_, n.line);
        p_.line(fmt::format("{} = {};", deviceVar(n.ref), c_.scalar(n.args[0], Where::Device)));
        return;
      case NodeKind::Alloc:
      case NodeKind::EnQue:
      case NodeKind::DeQue:
      case NodeKind::Free:
      case NodeKind::Flag: sync(n); return;
      default: c_.unsupported(n, fmt::format("a {} outside a stage", ir::nodeKindName(n.kind))); return;
    }
  }

  std::string deviceVar(uint32_t var) const { return c_.deviceVar(var); }

  void sync(const ir::Node& n) {
    if (n.kind == NodeKind::Flag) {
      // Queue insertion decided the event; one event ID suffices, as every Set is waited for at once.
      std::string event = fmt::format("HardEvent::{}_{}", ir::pipeName(n.fromPipe), ir::pipeName(n.toPipe));
      p_.line(fmt::format("SetFlag<{}>(EVENT_ID0);", event));
      p_.line(fmt::format("WaitFlag<{}>(EVENT_ID0);", event));
      return;
    }
    BufferId b = n.srcs.at(0);
    const ir::Buffer& buf = k_.buffer(b);
    std::string type = EmitContext::cppType(buf.dtype);
    std::string decl = c_.isMember(b) ? c_.tensor(b) : fmt::format("LocalTensor<{}> {}", type, c_.tensor(b));
    switch (n.kind) {
      case NodeKind::Alloc: p_.line(fmt::format("{} = {}.AllocTensor<{}>();", decl, c_.queueMember(b), type)); return;
      case NodeKind::DeQue: p_.line(fmt::format("{} = {}.DeQue<{}>();", decl, c_.queueMember(b), type)); return;
      case NodeKind::EnQue: p_.line(fmt::format("{}.EnQue({});", c_.queueMember(b), c_.tensor(b))); return;
      case NodeKind::Free: p_.line(fmt::format("{}.FreeTensor({});", c_.queueMember(b), c_.tensor(b))); return;
      default: return;
    }
  }

  void stageMethod(const StageInfo& s) {
    const ir::Node& stage = k_.node(s.node);
    p_.blank();
    p_.setTileLine(stage.line);  // the method and its buffers belong to the `with` line
    if (!c_.lineComment(stage.line).empty()) p_.line(c_.lineComment(stage.line));
    p_.open(fmt::format("__aicore__ inline void {}()", s.name));
    c_.resetLocals();
    std::set<BufferId> used;
    for (NodeId id : stage.body) buffersOf(k_.node(id), used);
    for (BufferId b : used) {
      const ir::Buffer& buf = k_.buffer(b);
      if (isQueue(buf)) continue;
      if (buf.mem != dsl::Mem::UB) {
        c_.unsupported(stage, fmt::format("buffers in {} (the cube path)", dsl::memName(buf.mem)));
        continue;
      }
      std::string type = EmitContext::cppType(buf.dtype);
      int tbuf = calcBuf_[static_cast<size_t>(buf.mem)];
      TC_ASSERT(tbuf >= 0, "kernel '{}': compute-only buffer %{} has no TBuf in the plan", k_.name, buf.name);
      p_.line(fmt::format("LocalTensor<{}> {} = {}.GetWithOffset<{}>({}, {});  // {}", type, c_.tensor(b),
                          calcBufName(buf.mem), type, buf.bytes * 8 / std::max(8, dsl::dtypeBits(buf.dtype)),
                          buf.offset - k_.pipe[static_cast<size_t>(tbuf)].offset, shapeText(b)));
    }
    c_.resetComment();
    for (NodeId id : stage.body) {
      const ir::Node& n = k_.node(id);
      if (ir::isSyncKind(n.kind)) {
        // A queue operation the compiler inserted is the stage's hand-over.
        p_.setTileLine(n.line != 0 ? n.line : stage.line);
        sync(n);
      } else if (n.kind == NodeKind::ScalarDef) {
        c_.comment(p_, n.line);
        p_.line(fmt::format("{} = {};", deviceVar(n.ref), c_.scalar(n.args[0], Where::Device)));
      } else if (ir::isTileOpKind(n.kind)) {
        c_.comment(p_, n.line);
        emitTileOp(c_, p_, n);
      } else {
        c_.unsupported(n, fmt::format("a {} inside a stage", ir::nodeKindName(n.kind)));
      }
    }
    p_.close();
    p_.setTileLine(0);
  }

  void members() {
    p_.blank();
    p_.line("TPipe pipe_;");
    for (BufferId b = 0; b < k_.buffers.size(); ++b) {
      const ir::Buffer& buf = k_.buffer(b);
      if (!isQueue(buf)) continue;
      const char* type = queueType(buf.queue);
      if (!type) {
        c_.unsupported(k_.node(k_.body), fmt::format("{} queues (the cube path)", ir::queueKindName(buf.queue)));
        continue;
      }
      p_.line(fmt::format("{} {};", type, c_.queueMember(b)));
    }
    for (const ir::PipeBuffer& pb : k_.pipe) {
      if (pb.queue == kNoBuffer) p_.line(fmt::format("TBuf<TPosition::VECCALC> {};", calcBufName(pb.mem)));
    }
    for (uint32_t i : tensorParams(k_)) {
      p_.line(fmt::format("GlobalTensor<{}> {};", EmitContext::cppType(k_.params[i].dtype), c_.gmMember(i)));
    }
    for (BufferId b = 0; b < k_.buffers.size(); ++b) {
      if (c_.isMember(b)) {
        p_.line(fmt::format("LocalTensor<{}> {};", EmitContext::cppType(k_.buffer(b).dtype), c_.tensor(b)));
      }
    }
    p_.line(fmt::format("{} tiling_{{}};", c_.tilingName));
    for (BufferId b = 0; b < k_.buffers.size(); ++b) {
      if (k_.buffer(b).mem == dsl::Mem::L0C) {
        p_.line(fmt::format("bool {}Fresh_ = true;  // the next Mmad into it starts from zero", c_.bufferName(b)));
      }
    }
    if (mixedKernel(k_)) {
      p_.line("// The hand-over to the vector cores: cross-core flag ids, this block's slot, this core's rows.");
      p_.line("static constexpr uint16_t kCubeReady = 0;");
      p_.line("static constexpr uint16_t kVectorDone = 1;");
      p_.line("GlobalTensor<float> workspaceGm_;");
      p_.line("int64_t cubeBlock_ = 0, subRowOffset_ = 0;");
      p_.line("bool workspaceBusy_ = false;");
    }
    std::string state;
    for (uint32_t s = 0; s < k_.splits.size(); ++s) {
      state += fmt::format(" {} = 0, {} = 0,", c_.splitMember(s, "Start"), c_.splitMember(s, "Len"));
    }
    for (uint32_t l = 0; l < k_.loops.size(); ++l) {
      if (k_.loops[l].tile) {
        state += fmt::format(" {} = 0, {} = 0, {} = 0, {} = 0,", c_.loopMember(l, "Count"), c_.loopMember(l, "Idx"),
                             c_.loopMember(l, "Start"), c_.loopMember(l, "Len"));
      } else {
        state += fmt::format(" {} = 0,", c_.loopMember(l, "Idx"));
      }
    }
    for (uint32_t v = 0; v < k_.vars.size(); ++v) {
      if (k_.vars[v].kind == ir::Var::Kind::Device && !dsl::isFloat(k_.vars[v].dtype)) {
        state += fmt::format(" {} = 0,", deviceVar(v));
      }
    }
    if (!state.empty()) {
      state.pop_back();
      p_.line("// Where this core is in the DSL's splits and loops.");
      p_.line("int64_t" + state + ";");
    }
    for (uint32_t v = 0; v < k_.vars.size(); ++v) {
      if (k_.vars[v].kind == ir::Var::Kind::Device && dsl::isFloat(k_.vars[v].dtype)) {
        p_.line(fmt::format("float {} = 0;", deviceVar(v)));
      }
    }
  }

  EmitContext& c_;
  CodePrinter& p_;
  const ir::Kernel& k_;
  std::vector<StageInfo> stages_;
  std::vector<int> calcBuf_;      // per Mem: the index in k_.pipe of its compute-only TBuf, -1 for none
  uint32_t rowLoop_ = ir::kNone;  // mixed kernels: the loop whose rows the two vector cores share
};

}  // namespace

void emitKernelClass(EmitContext& c, CodePrinter& p) { KernelEmitter(c, p).run(); }

}  // namespace tilecraft::codegen::detail
