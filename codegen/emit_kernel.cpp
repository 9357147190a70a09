// The kernel class: members (TPipe, one TQue per handed-over buffer, one TBuf for everything compute-only,
// GlobalTensors, the loop state), Init, Process (the DSL's loop nest, calling one method per stage block) and the
// stage methods, each in the official CopyIn / Compute / CopyOut shape.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "codegen/emit_context.h"
#include "codegen/emit_cube.h"
#include "ir/check.h"

namespace tilecraft::codegen::detail {

using ir::BufferId;
using ir::NodeId;
using ir::NodeKind;

namespace {

bool isQueue(const ir::Buffer& b) { return b.queue != ir::QueueKind::None && b.queue != ir::QueueKind::Calc; }
bool isUbQueue(const ir::Buffer& b) { return isQueue(b) && b.mem == dsl::Mem::UB; }
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
  // UB between two queues (or before the first / after the last) holding compute-only buffers: one TBuf.
  struct Segment {
    int64_t start = 0;
    int64_t end = 0;
    bool used = false;
    std::string name;
  };
  struct Unit {
    BufferId buffer;  // a queue, or kNoBuffer for a segment
    int segment;
  };

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
    // The TPipe hands out UB in InitBuffer order, so buffers are declared in planned-offset order: each queue,
    // and for the compute-only buffers between two queues one TBuf spanning them (offsets inside it as planned).
    std::vector<BufferId> queues;
    for (BufferId b = 0; b < k_.buffers.size(); ++b) {
      if (isUbQueue(k_.buffer(b))) queues.push_back(b);
    }
    std::stable_sort(queues.begin(), queues.end(),
                     [&](BufferId a, BufferId b) { return k_.buffer(a).offset < k_.buffer(b).offset; });
    auto end = [&](BufferId b) { return k_.buffer(b).offset + k_.buffer(b).bytes * std::max(k_.buffer(b).buffers, 1); };
    std::vector<Segment> segments(queues.size() + 1);
    for (size_t j = 0; j < segments.size(); ++j) segments[j].start = j == 0 ? 0 : end(queues[j - 1]);
    calcSegment_.assign(k_.buffers.size(), -1);
    for (BufferId b = 0; b < k_.buffers.size(); ++b) {
      if (isQueue(k_.buffer(b)) || k_.buffer(b).mem != dsl::Mem::UB) continue;
      size_t j = 0;
      while (j < queues.size() && k_.buffer(b).offset >= end(queues[j])) ++j;
      segments[j].end = std::max(segments[j].end, end(b));
      segments[j].used = true;
      calcSegment_[b] = static_cast<int>(j);
    }
    int used = 0;
    for (const Segment& seg : segments) used += seg.used;
    for (size_t j = 0, n = 0; j < segments.size(); ++j) {
      if (!segments[j].used) continue;
      segments[j].name = used > 1 ? fmt::format("calcBuf{}_", n++) : "calcBuf_";
    }
    for (size_t j = 0; j < segments.size(); ++j) {
      if (segments[j].used) units_.push_back({kNoBuffer, static_cast<int>(j)});
      if (j < queues.size()) units_.push_back({queues[j], -1});
    }
    segments_ = std::move(segments);
    planCubeQueues();
  }

  // L1 and L0 queues: one InitBuffer each, per memory in planned-offset order, sized so each buffer starts at the
  // alignment the cube needs (512 bytes in L0A/L0B, 1024 in L0C for Mmad). Buffers the planner overlapped in time
  // are not shared here: a layout that then does not fit is reported.
  void planCubeQueues() {
    std::vector<BufferId> cube;
    for (BufferId b = 0; b < k_.buffers.size(); ++b) {
      if (isQueue(k_.buffer(b)) && k_.buffer(b).mem != dsl::Mem::UB) cube.push_back(b);
    }
    std::stable_sort(cube.begin(), cube.end(), [&](BufferId a, BufferId b) {
      const ir::Buffer& x = k_.buffer(a);
      const ir::Buffer& y = k_.buffer(b);
      return x.mem != y.mem ? x.mem < y.mem : x.offset < y.offset;
    });
    std::map<dsl::Mem, int64_t> used;
    for (BufferId b : cube) {
      const ir::Buffer& buf = k_.buffer(b);
      int64_t align = buf.mem == dsl::Mem::L0C ? 1024 : buf.mem == dsl::Mem::L1 ? 32 : 512;
      int64_t bytes = ir::alignUp(buf.bytes, align);
      used[buf.mem] += bytes * std::max(buf.buffers, 1);
      cubeBytes_[b] = bytes;
      units_.push_back({b, -1});
      if (used[buf.mem] > dsl::memCapacityBytes(buf.mem)) {
        c_.unsupported(k_.node(k_.body),
                       fmt::format("{} buffers that share space in {}", dsl::memName(buf.mem), dsl::memName(buf.mem)));
      }
    }
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
    }
    for (const Unit& u : units_) {
      if (u.buffer != kNoBuffer) {
        const ir::Buffer& buf = k_.buffer(u.buffer);
        std::string guard;
        if (mixedKernel(k_)) guard = buf.mem == dsl::Mem::UB ? "if (ASCEND_IS_AIV) " : "if (ASCEND_IS_AIC) ";
        int64_t bytes = cubeBytes_.count(u.buffer) ? cubeBytes_.at(u.buffer) : buf.bytes;
        p_.line(fmt::format("{}pipe_.InitBuffer({}, {}, {});  // {} per copy", guard, c_.queueMember(u.buffer),
                            buf.buffers, bytes, shapeText(u.buffer)));
      } else {
        const Segment& seg = segments_[u.segment];
        p_.line(fmt::format("{}pipe_.InitBuffer({}, {});  // compute-only values and work buffers",
                            mixedKernel(k_) ? "if (ASCEND_IS_AIV) " : "", seg.name, seg.end - seg.start));
      }
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
      const Segment& seg = segments_[calcSegment_[b]];
      p_.line(fmt::format("LocalTensor<{}> {} = {}.GetWithOffset<{}>({}, {});  // {}", type, c_.tensor(b), seg.name,
                          type, buf.bytes * 8 / std::max(8, dsl::dtypeBits(buf.dtype)), buf.offset - seg.start,
                          shapeText(b)));
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
    for (const Segment& seg : segments_) {
      if (seg.used) p_.line(fmt::format("TBuf<TPosition::VECCALC> {};", seg.name));
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
  std::vector<Segment> segments_;
  std::vector<int> calcSegment_;           // per buffer: its segment, -1 for queues
  std::vector<Unit> units_;                // what Init declares, in UB order, then the L1/L0 queues
  std::map<BufferId, int64_t> cubeBytes_;  // L1/L0 queues: bytes per copy, rounded to the cube's alignment
  uint32_t rowLoop_ = ir::kNone;           // mixed kernels: the loop whose rows the two vector cores share
};

}  // namespace

void emitKernelClass(EmitContext& c, CodePrinter& p) { KernelEmitter(c, p).run(); }

}  // namespace tilecraft::codegen::detail
