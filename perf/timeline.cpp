#include "perf/timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <queue>

#include "perf/error.h"
#include "perf/l2_residency.h"

namespace tilecraft::perf {
namespace {

constexpr int kS = static_cast<int>(TracePipe::S);
constexpr double kNever = std::numeric_limits<double>::infinity();

// Vector instruction class from the AscendC API name; unknown names cost as a unary op.
VecClass vectorClass(std::string_view name) {
  static const std::map<std::string_view, VecClass> table = {
      {"Add", VecClass::Binary},
      {"Sub", VecClass::Binary},
      {"Mul", VecClass::Binary},
      {"Max", VecClass::Binary},
      {"Min", VecClass::Binary},
      {"And", VecClass::Binary},
      {"Or", VecClass::Binary},
      {"Select", VecClass::Binary},
      {"Compare", VecClass::Binary},
      {"Axpy", VecClass::Binary},
      {"AddRelu", VecClass::Binary},
      {"MulAddDst", VecClass::Binary},
      {"Exp", VecClass::Exp},
      {"Ln", VecClass::Exp},
      {"Log", VecClass::Exp},
      {"Sqrt", VecClass::Sqrt},
      {"Div", VecClass::Div},
      {"Cast", VecClass::Cast},
      {"ReduceSum", VecClass::Reduce},
      {"ReduceMax", VecClass::Reduce},
      {"ReduceMin", VecClass::Reduce},
      {"WholeReduceSum", VecClass::Reduce},
      {"WholeReduceMax", VecClass::Reduce},
      {"WholeReduceMin", VecClass::Reduce},
      {"BlockReduceSum", VecClass::Reduce},
      {"BlockReduceMax", VecClass::Reduce},
      {"BlockReduceMin", VecClass::Reduce},
      {"PairReduceSum", VecClass::Reduce},
      {"RepeatReduceSum", VecClass::Reduce},
      {"Gather", VecClass::Gather},
      {"Gatherb", VecClass::Gather},
      {"Sort", VecClass::Sort},
      {"Sort32", VecClass::Sort},
      {"MrgSort", VecClass::Sort},
      {"MrgSort4", VecClass::Sort},
  };
  auto it = table.find(name);
  return it == table.end() ? VecClass::Unary : it->second;
}

// Shared memory paths: HBM for reads (and for writes L2 cannot absorb), L2 for absorbed writes.
enum PoolId : uint8_t { kHbm = 0, kL2 = 1, kPools = 2, kNoPool = 255 };

// What an instruction costs: `cycles` of fixed time, then (for GM transfers) `work` units through a shared pool
// at no more than `cap` units per cycle. Work units are bytes inflated by the unaligned-burst and read-path factors.
struct InstrCost {
  double cycles = 0;
  double work = 0;
  double cap = 0;
  uint8_t pool = kNoPool;
};

// How the launch's GM traffic is priced; fixed for a launch before it runs.
struct PathModel {
  double readCost = 1;  // HBM work units per byte read (> 1 on the L2-allocating path)
  bool writesInL2 = false;
};

class CostModel {
 public:
  CostModel(const ArchSpec& arch, const TraceFile& trace, PathModel path)
      : arch_(arch), trace_(trace), path_(path), vec_(arch.vectorMeasured()) {}

  InstrCost operator()(const TraceInstr& in) const {
    switch (in.cls) {
      case TraceClass::Scalar:
        return fixed(arch_.scalarUbAccessCycles * static_cast<double>(std::max<uint64_t>(1, in.elements)));
      case TraceClass::DmaIn:
        if (in.src == TraceSpace::GM) {
          double peak = in.dst == TraceSpace::UB ? arch_.mte2GmUbBw : arch_.mte2GmL1Bw;
          // A read the kernel hinted around L2 streams from HBM at the bypass rate.
          return transfer(arch_.mte2Startup, in, peak, kHbm, in.l2Bypass ? 1.0 : path_.readCost);
        }
        return local(in);
      case TraceClass::DmaOut:
        if (in.dst == TraceSpace::GM) return transfer(arch_.mte3Startup, in, arch_.mte3UbGmBw, writePool(in), 1.0);
        return local(in);
      case TraceClass::DmaLocal: return local(in);
      case TraceClass::Fixpipe:
        if (in.dst == TraceSpace::GM) return transfer(arch_.fixStartup, in, arch_.fixBw, writePool(in), 1.0);
        return fixed(arch_.fixStartup + static_cast<double>(in.bytes) / arch_.fixBw);
      case TraceClass::Vector: {
        int lane = static_cast<int>(std::clamp<uint32_t>(in.dtypeBytes, 1, 8));
        double repeats =
            in.repeats > 0 ? in.repeats : std::ceil(static_cast<double>(in.elements) * lane / arch_.vectorRepeatBytes);
        return fixed(arch_.vectorInstrFixedCycles +
                     repeats * vec_.cyclesPerRepeat(vectorClass(trace_.names[in.name]), lane));
      }
      case TraceClass::Cube: {
        // One 16x16x16 fp16 fractal per cycle after the issue cost; int8 twice as fast, fp32 a quarter.
        double factor = in.dtypeBytes == 1 ? arch_.cubeInt8Factor : in.dtypeBytes >= 4 ? arch_.cubeF32Factor : 1.0;
        double fractals = std::ceil(in.m / 16.0) * std::ceil(in.n / 16.0) * std::ceil(in.k / 16.0);
        return fixed(arch_.mmadIssueCycles + fractals / factor);
      }
      case TraceClass::SetFlag: return fixed(arch_.setFlagCycles);
      case TraceClass::WaitFlag: return fixed(arch_.waitFlagCycles);
      case TraceClass::Barrier: return fixed(arch_.pipeBarrierCycles);
      // hardware.md §5 gives no cycle count for a rendezvous; it is priced as one barrier after the drain.
      case TraceClass::CoreSync: return fixed(arch_.pipeBarrierCycles);
    }
    return {};
  }

 private:
  static InstrCost fixed(double cycles) { return InstrCost{cycles, 0, 0, kNoPool}; }

  // A write hinted around L2 goes to HBM even when L2 could absorb it.
  uint8_t writePool(const TraceInstr& in) const { return path_.writesInL2 && !in.l2Bypass ? kL2 : kHbm; }

  InstrCost transfer(double startup, const TraceInstr& in, double peak, uint8_t pool, double cost) const {
    // A burst that does not start on a 512 B GM boundary, or bursts of other lengths, move data at 70 %: the
    // lost share is wasted burst bandwidth, so it costs HBM work too, not only the core's time.
    bool aligned = in.gmAlign == 0 && (in.bursts <= 1 || in.burstBytes % 512 == 0);
    double inflate = cost / (aligned ? 1.0 : arch_.unalignedBurstFactor);
    return InstrCost{startup, static_cast<double>(in.bytes) * inflate, peak * cost, pool};
  }

  InstrCost local(const TraceInstr& in) const {
    double bytes = static_cast<double>(in.bytes);
    if (in.pipe == TracePipe::MTE1) {
      return fixed(arch_.mte1Startup + bytes / (in.dst == TraceSpace::L0B ? arch_.mte1L0bBw : arch_.mte1L0aBw));
    }
    // UB->UB and the other on-chip copies run at a vector repeat (256 B) per cycle (hardware.md §3.2).
    return fixed(arch_.vectorInstrFixedCycles + std::ceil(bytes / arch_.vectorRepeatBytes) * vec_.unary);
  }

  const ArchSpec& arch_;
  const TraceFile& trace_;
  PathModel path_;
  VectorCosts vec_;
};

// Transfers sharing one memory path get max-min fair rates: each at most its core's peak, the rest split evenly.
class BandwidthPool {
 public:
  explicit BandwidthPool(double capacity) : capacity_(capacity) {}

  void add(double now, int core, int pipe, double work, double cap) {
    advance(now);
    flows_.push_back(Flow{core, pipe, work, cap, 0, kNever});
    reallocate(now);
  }

  double nextFinish() const { return next_; }
  uint64_t version() const { return version_; }

  // Removes the transfers finished at `now` and appends their (core, pipe) to `done`.
  void finish(double now, std::vector<std::pair<int, int>>& done) {
    advance(now);
    size_t kept = 0;
    for (Flow& f : flows_) {
      if (f.finishAt <= now) {
        done.emplace_back(f.core, f.pipe);
      } else {
        flows_[kept++] = f;
      }
    }
    flows_.resize(kept);
    reallocate(now);
  }

  double saturatedCycles() const { return saturated_; }

 private:
  struct Flow {
    int core, pipe;
    double remaining, cap, rate, finishAt;
  };

  void advance(double now) {
    double dt = now - last_;
    if (dt > 0) {
      for (Flow& f : flows_) f.remaining = std::max(0.0, f.remaining - f.rate * dt);
      if (saturatedNow_) saturated_ += dt;
    }
    last_ = std::max(last_, now);
  }

  void reallocate(double now) {
    order_.resize(flows_.size());
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) { return flows_[a].cap < flows_[b].cap; });
    double left = capacity_;
    size_t n = flows_.size();
    for (size_t i : order_) {
      Flow& f = flows_[i];
      f.rate = std::min(f.cap, left / static_cast<double>(n));
      left -= f.rate;
      --n;
    }
    saturatedNow_ = !flows_.empty() && left <= 1e-9 * capacity_;
    next_ = kNever;
    for (Flow& f : flows_) {
      f.finishAt = f.rate > 0 ? now + f.remaining / f.rate : kNever;
      next_ = std::min(next_, f.finishAt);
    }
    ++version_;
  }

  double capacity_;
  std::vector<Flow> flows_;
  std::vector<size_t> order_;
  double last_ = 0, next_ = kNever, saturated_ = 0;
  bool saturatedNow_ = false;
  uint64_t version_ = 0;
};

class LaunchSim;

// One core: the scalar unit issues in order into per-pipe queues; each pipe runs its queue in order.
class CoreSim {
 public:
  CoreSim(LaunchSim& launch, int index, const TraceCore& core, std::vector<InstrCost> costs, const TraceFile& trace,
          const ArchSpec& arch);

  void progress(double now);
  void finishTransfer(double now, int pipe);
  void release(double at);  // the core starts, or the rendezvous it waits at is over
  bool done() const { return done_; }
  CoreProfile profile() const;
  std::string blockedAt() const;

 private:
  struct Pipe {
    std::vector<std::pair<uint32_t, double>> queue;  // (instruction, issued at)
    size_t head = 0;
    int flows = 0;  // parts of the current transfer still in a pool (a read partly held in L2 has two)
    bool busy = false, inPool = false, startup = false;
    uint32_t cur = 0;
    double start = 0, endAt = 0, lastEnd = 0;
  };
  enum class Block : uint8_t { None, Token, Drain, Rendezvous };

  bool issue();
  bool startPipes(double now);
  bool finishPipes(double now);
  void complete(Pipe& p, int pipe, double end);
  bool drained() const;
  double drainTime() const;
  double fired(uint32_t token) const { return token < fired_.size() ? fired_[token] : kNever; }
  // When the auto-sync dependencies of an instruction (TraceInstr::after) have all completed; kNever until then.
  double depsDone(const TraceInstr& in) const {
    double t = 0;
    for (uint32_t a : in.after) {
      if (a) t = std::max(t, doneAt_[a - 1]);
    }
    return t;
  }
  static bool isCross(const TraceInstr& in) { return in.cls == TraceClass::CoreSync && in.crossFlag >= 0; }
  bool isCrossWait(const TraceInstr& in) const { return trace_.names[in.name] == "CrossCoreWaitFlag"; }
  void record(int pipe, uint32_t instr, double start, double cycles);

  LaunchSim& launch_;
  int index_;
  const TraceCore& core_;
  std::vector<InstrCost> costs_;
  const TraceFile& trace_;
  const ArchSpec& arch_;
  size_t next_ = 0;
  double issueAt_ = 0;
  Block block_ = Block::None;
  std::array<Pipe, kTracePipes> pipes_;
  std::vector<double> fired_;   // token -> time its set fired
  std::vector<double> doneAt_;  // instruction -> when it completed (kNever: not yet)
  std::array<double, kTracePipes> busy_{};
  bool done_ = false;
};

class LaunchSim {
 public:
  LaunchSim(const TraceLaunch& launch, const TraceFile& trace, const ArchSpec& arch, const TimelineOptions& options);
  LaunchProfile run();

  void wake(int core, double at) { push(at, core, -1, 0); }
  // Puts a transfer into its pool (a GM read partly held in L2 into both); returns how many flows it became.
  int addTransfer(double now, int core, int pipe, const InstrCost& cost, const TraceInstr& in);
  void arriveAtSyncAll(int core, double at);
  void coreDone(int core);
  // Cross-core flags (docs/emulator.md §2): a set fired at `at` on `core` contributes to its mode's target cores;
  // a target's flag goes up one FFTS hop after the last of the cores whose sets of that mode reach it
  // contributed, and a wait (whatever its mode) takes it down by one.
  void crossSignal(int core, const TraceInstr& set, double at);
  double crossReady(int core, const TraceInstr& wait) const;  // kNever until enough signals arrived
  void crossConsume(int core, const TraceInstr& wait);
  void record(const TimelineEvent& e) {
    if (keepEvents_) events_.push_back(e);
  }

 private:
  struct Event {
    double at;
    uint64_t seq;
    int core;
    int pool;
    uint64_t version;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void push(double at, int core, int pool, uint64_t version) { queue_.push(Event{at, seq_++, core, pool, version}); }
  void schedulePool(int pool);
  void tryRelease(bool aic);

  const TraceLaunch& launch_;
  const ArchSpec& arch_;
  bool keepEvents_;
  bool l2Bypass_;
  PathModel path_;
  std::vector<CoreSim> cores_;
  std::array<BandwidthPool, kPools> pools_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> queue_;
  uint64_t seq_ = 0;
  std::vector<double> arrivedAt_;  // per core: when it reached its pending SyncAll (kNever: not waiting)
  bool crossTarget(int mode, size_t from, size_t to) const;
  size_t crossNeed(int mode, size_t core) const;
  struct CrossCounter {
    std::vector<double> arrivals;  // times the flag went up, sorted
    size_t consumed = 0;
    std::array<size_t, 3> parts{};     // contributions so far per mode
    std::array<double, 3> lastPart{};  // when the latest of them fired
  };
  std::vector<std::array<CrossCounter, 16>> cross_;  // per core and flag id
  std::vector<TimelineEvent> events_;
  double gmRead_ = 0, gmWrite_ = 0, l2HitBytes_ = 0, bypassReadBytes_ = 0;
  L2Residency l2_;
};

CoreSim::CoreSim(LaunchSim& launch, int index, const TraceCore& core, std::vector<InstrCost> costs,
                 const TraceFile& trace, const ArchSpec& arch)
    : launch_(launch), index_(index), core_(core), costs_(std::move(costs)), trace_(trace), arch_(arch) {
  uint32_t maxToken = 0;
  for (const TraceInstr& in : core.instrs) maxToken = std::max(maxToken, in.token);
  fired_.assign(static_cast<size_t>(maxToken) + 1, kNever);
  doneAt_.assign(core.instrs.size(), kNever);
}

void CoreSim::record(int pipe, uint32_t instr, double start, double cycles) {
  busy_[static_cast<size_t>(pipe)] += cycles;
  launch_.record(TimelineEvent{index_, pipe, instr, start, cycles});
}

bool CoreSim::drained() const {
  for (int p = 0; p < kTracePipes; ++p) {
    const Pipe& pipe = pipes_[static_cast<size_t>(p)];
    if (p != kS && (pipe.busy || pipe.head < pipe.queue.size())) return false;
  }
  return true;
}

double CoreSim::drainTime() const {
  double t = 0;
  for (const Pipe& p : pipes_) t = std::max(t, p.lastEnd);
  return t;
}

// The scalar unit: S-pipe work runs here in program order; everything else is queued on its pipe.
bool CoreSim::issue() {
  bool changed = false;
  while (next_ < core_.instrs.size() && block_ == Block::None) {
    uint32_t i = static_cast<uint32_t>(next_);
    const TraceInstr& in = core_.instrs[i];
    const InstrCost& cost = costs_[i];
    std::string_view name = in.cls == TraceClass::CoreSync ? std::string_view(trace_.names[in.name]) : "";
    bool cross = isCross(in);
    // A trace without flag ids (older emulators) cannot pair its cross-core flags: there a set drains the core.
    bool drains =
        in.pipe == TracePipe::All || (in.cls == TraceClass::CoreSync && !cross && name != "CrossCoreWaitFlag");
    if (drains) {
      // PIPE_ALL, SyncAll (and unpaired cross-core sets) stall issue until every pipe has finished what it was given.
      if (!drained()) {
        block_ = Block::Drain;
        break;
      }
      double start = std::max(issueAt_, drainTime());
      record(kS, i, start, cost.cycles);
      issueAt_ = start + cost.cycles;
      pipes_[kS].lastEnd = issueAt_;
      doneAt_[i] = issueAt_;
      ++next_;
      changed = true;
      if (name == "SyncAll") {
        block_ = Block::Rendezvous;
        launch_.arriveAtSyncAll(index_, issueAt_);
      }
      continue;
    }
    int p = static_cast<int>(in.pipe);
    if (p == kS) {
      double start = std::max(issueAt_, depsDone(in));
      if (start == kNever) {
        block_ = Block::Token;
        break;
      }
      if (in.cls == TraceClass::WaitFlag || (cross && isCrossWait(in))) {
        double f = in.cls == TraceClass::WaitFlag ? fired(in.token) : launch_.crossReady(index_, in);
        if (f == kNever) {
          block_ = Block::Token;
          break;
        }
        start = std::max(start, f);
        if (cross) launch_.crossConsume(index_, in);
      }
      record(kS, i, start, cost.cycles);
      issueAt_ = start + cost.cycles;
      pipes_[kS].lastEnd = issueAt_;
      doneAt_[i] = issueAt_;
      if (in.cls == TraceClass::SetFlag && in.token < fired_.size()) fired_[in.token] = issueAt_;
      if (cross && !isCrossWait(in)) launch_.crossSignal(index_, in, issueAt_);
    } else {
      pipes_[static_cast<size_t>(p)].queue.emplace_back(i, issueAt_);
      issueAt_ += arch_.scalarIssueCycles;
      busy_[kS] += arch_.scalarIssueCycles;
      pipes_[kS].lastEnd = issueAt_;
    }
    ++next_;
    changed = true;
  }
  return changed;
}

bool CoreSim::startPipes(double now) {
  bool changed = false;
  for (int p = 0; p < kTracePipes; ++p) {
    Pipe& pipe = pipes_[static_cast<size_t>(p)];
    if (p == kS || pipe.busy || pipe.head >= pipe.queue.size()) continue;
    auto [i, issuedAt] = pipe.queue[pipe.head];
    const TraceInstr& in = core_.instrs[i];
    double ready = std::max({issuedAt, pipe.lastEnd, depsDone(in)});
    if (ready == kNever) continue;  // woken when the instruction it waits for completes
    bool crossWait = isCross(in) && isCrossWait(in);
    if (in.cls == TraceClass::WaitFlag || crossWait) {
      double f = crossWait ? launch_.crossReady(index_, in) : fired(in.token);
      if (f == kNever) continue;  // woken when the set fires
      ready = std::max(ready, f);
    }
    if (ready > now) {
      launch_.wake(index_, ready);
      continue;
    }
    if (crossWait) launch_.crossConsume(index_, in);
    ++pipe.head;
    const InstrCost& cost = costs_[i];
    pipe.busy = true;
    pipe.cur = i;
    pipe.start = ready;
    pipe.startup = cost.pool != kNoPool && cost.work > 0;
    pipe.endAt = ready + cost.cycles;
    launch_.wake(index_, pipe.endAt);
    changed = true;
  }
  return changed;
}

void CoreSim::complete(Pipe& p, int pipe, double end) {
  const TraceInstr& in = core_.instrs[p.cur];
  record(pipe, p.cur, p.start, end - p.start);
  p.busy = false;
  p.inPool = false;
  p.lastEnd = end;
  doneAt_[p.cur] = end;
  // A set fires once its pipe has finished everything before it: the pipe is in order.
  if (in.cls == TraceClass::SetFlag && in.token < fired_.size()) fired_[in.token] = end;
  if (isCross(in) && !isCrossWait(in)) launch_.crossSignal(index_, in, end);
}

bool CoreSim::finishPipes(double now) {
  bool changed = false;
  for (int p = 0; p < kTracePipes; ++p) {
    Pipe& pipe = pipes_[static_cast<size_t>(p)];
    if (!pipe.busy || pipe.inPool || pipe.endAt > now) continue;
    if (pipe.startup) {
      pipe.startup = false;
      pipe.inPool = true;
      pipe.flows = launch_.addTransfer(pipe.endAt, index_, p, costs_[pipe.cur], core_.instrs[pipe.cur]);
    } else {
      complete(pipe, p, pipe.endAt);
    }
    changed = true;
  }
  return changed;
}

void CoreSim::progress(double now) {
  if (done_) return;
  bool changed = true;
  while (changed) {
    changed = finishPipes(now);
    if (block_ == Block::Token || block_ == Block::Drain) block_ = Block::None;  // re-checked by issue()
    changed = issue() || changed;
    changed = startPipes(now) || changed;
  }
  if (next_ == core_.instrs.size() && block_ == Block::None && drained()) {
    done_ = true;
    launch_.coreDone(index_);
  }
}

void CoreSim::finishTransfer(double now, int pipe) {
  Pipe& p = pipes_[static_cast<size_t>(pipe)];
  if (--p.flows > 0) return;  // its other part is still moving
  complete(p, pipe, now);
  progress(now);
}

void CoreSim::release(double at) {
  block_ = Block::None;
  issueAt_ = std::max(issueAt_, at);
  launch_.wake(index_, issueAt_);
}

CoreProfile CoreSim::profile() const {
  CoreProfile p;
  p.index = core_.index;
  p.aic = core_.aic;
  p.block = core_.block;
  p.sub = core_.sub;
  p.cycles = drainTime();
  p.busy = busy_;
  return p;
}

std::string CoreSim::blockedAt() const {
  auto where = [&](uint32_t i) {
    const TraceInstr& in = core_.instrs[i];
    std::string what = isCross(in) ? fmt::format("cross-core flag {}, mode {}", in.crossFlag, in.crossMode)
                                   : fmt::format("token {}", in.token);
    return fmt::format("instruction {} ({} at {}:{}, pipe {}, {})", i, trace_.names[in.name], trace_.names[in.file],
                       in.line, tracePipeName(in.pipe), what);
  };
  if (block_ == Block::Token) return where(static_cast<uint32_t>(next_));
  for (const Pipe& p : pipes_) {
    if (!p.busy && p.head < p.queue.size()) return where(p.queue[p.head].first);
  }
  if (next_ < core_.instrs.size()) return where(static_cast<uint32_t>(next_));
  return "the end of its program";
}

LaunchSim::LaunchSim(const TraceLaunch& launch, const TraceFile& trace, const ArchSpec& arch,
                     const TimelineOptions& options)
    : launch_(launch),
      arch_(arch),
      keepEvents_(options.keepEvents),
      l2Bypass_(options.l2BypassReads),
      pools_{BandwidthPool(arch.hbmStreamBw / arch.clockHz), BandwidthPool(arch.l2Bw / arch.clockHz)},
      l2_(arch.l2Bytes, arch.l2LineBytes) {
  for (const TraceCore& c : launch.cores) {
    for (const TraceInstr& in : c.instrs) {
      if (in.src == TraceSpace::GM) gmRead_ += static_cast<double>(in.bytes);
      if (in.src == TraceSpace::GM && in.l2Bypass) bypassReadBytes_ += static_cast<double>(in.bytes);
      if (in.dst == TraceSpace::GM) gmWrite_ += static_cast<double>(in.bytes);
    }
  }
  // Reads come from HBM through L2, which allocates lines as it goes (the default path), unless the kernel uses the
  // bypass alias. Writes that fit L2 are absorbed by it and written back after the kernel.
  path_.readCost = options.l2BypassReads ? 1.0 : 1.0 / arch.l2AllocateReadFactor;
  path_.writesInL2 = gmWrite_ <= arch.l2Bytes;
  CostModel costOf(arch, trace, path_);
  cores_.reserve(launch.cores.size());
  for (size_t c = 0; c < launch.cores.size(); ++c) {
    std::vector<InstrCost> costs;
    costs.reserve(launch.cores[c].instrs.size());
    for (const TraceInstr& in : launch.cores[c].instrs) costs.push_back(costOf(in));
    cores_.emplace_back(*this, static_cast<int>(c), launch.cores[c], std::move(costs), trace, arch);
  }
  arrivedAt_.assign(cores_.size(), kNever);
  cross_.resize(cores_.size());
}

// The emulator's topology (emu/include/emu/launch.h): mode 0 reaches every core of the setter's kind (itself
// too), mode 1 the other AIV of the block, mode 2 the cores of the other kind in the block.
bool LaunchSim::crossTarget(int mode, size_t from, size_t to) const {
  const TraceCore& a = launch_.cores[from];
  const TraceCore& b = launch_.cores[to];
  if (mode == 0) return a.aic == b.aic;
  if (mode == 1) return !a.aic && !b.aic && a.block == b.block && from != to;
  return a.block == b.block && a.aic != b.aic;
}

size_t LaunchSim::crossNeed(int mode, size_t core) const {
  size_t n = 0;
  for (size_t c = 0; c < cores_.size(); ++c) n += crossTarget(mode, c, core) ? 1 : 0;
  return n;
}

// An FFTS hop has no published cycle count (hardware.md §5: "2 pipe drains plus an FFTS round trip"); the
// signal is priced as one pipe barrier, the same estimate as a SyncAll rendezvous.
void LaunchSim::crossSignal(int core, const TraceInstr& set, double at) {
  const int mode = static_cast<int>(set.crossMode);
  for (size_t t = 0; t < cores_.size(); ++t) {
    if (!crossTarget(mode, static_cast<size_t>(core), t)) continue;
    CrossCounter& c = cross_[t][static_cast<size_t>(set.crossFlag)];
    size_t m = static_cast<size_t>(mode);
    c.lastPart[m] = std::max(c.lastPart[m], at);
    if (++c.parts[m] < crossNeed(mode, t)) continue;
    double arrive = c.lastPart[m] + arch_.pipeBarrierCycles;
    c.parts[m] = 0;
    c.lastPart[m] = 0;
    // Sets fire in simulated-time order, so arrivals mostly come sorted; a wait takes the earliest.
    c.arrivals.insert(std::upper_bound(c.arrivals.begin(), c.arrivals.end(), arrive), arrive);
    wake(static_cast<int>(t), arrive);
  }
}

double LaunchSim::crossReady(int core, const TraceInstr& wait) const {
  const CrossCounter& c = cross_[static_cast<size_t>(core)][static_cast<size_t>(wait.crossFlag)];
  return c.consumed < c.arrivals.size() ? c.arrivals[c.consumed] : kNever;
}

void LaunchSim::crossConsume(int core, const TraceInstr& wait) {
  ++cross_[static_cast<size_t>(core)][static_cast<size_t>(wait.crossFlag)].consumed;
}

void LaunchSim::schedulePool(int pool) {
  const BandwidthPool& p = pools_[static_cast<size_t>(pool)];
  if (p.nextFinish() != kNever) push(p.nextFinish(), -1, pool, p.version());
}

int LaunchSim::addTransfer(double now, int core, int pipe, const InstrCost& cost, const TraceInstr& in) {
  bool cachedRead = in.src == TraceSpace::GM && !in.l2Bypass && !l2Bypass_;
  bool absorbedWrite = in.dst == TraceSpace::GM && cost.pool == kL2;
  double hit = cachedRead || absorbedWrite ? l2_.touch(in) : 0;
  if (!cachedRead || hit <= 0) {
    pools_[cost.pool].add(now, core, pipe, cost.work, cost.cap);
    schedulePool(cost.pool);
    return 1;
  }
  // The share L2 holds comes from L2 without the allocating path's penalty, the rest from HBM, at once; each part
  // gets its share of the core's peak, so an uncontended read takes as long as before and only the memory differs.
  l2HitBytes_ += hit * static_cast<double>(in.bytes);
  double miss = 1 - hit;
  int flows = 0;
  if (miss > 0) {
    pools_[kHbm].add(now, core, pipe, cost.work * miss, cost.cap * miss);
    schedulePool(kHbm);
    ++flows;
  }
  pools_[kL2].add(now, core, pipe, cost.work * hit / path_.readCost, cost.cap * hit / path_.readCost);
  schedulePool(kL2);
  return flows + 1;
}

// SyncAll joins the cores of one kind (AIV with AIV, AIC with AIC): the k-th SyncAll of each waits for the rest.
void LaunchSim::arriveAtSyncAll(int core, double at) {
  arrivedAt_[static_cast<size_t>(core)] = at;
  tryRelease(launch_.cores[static_cast<size_t>(core)].aic);
}

void LaunchSim::coreDone(int core) { tryRelease(launch_.cores[static_cast<size_t>(core)].aic); }

void LaunchSim::tryRelease(bool aic) {
  double latest = 0;
  bool anyWaiting = false;
  for (size_t c = 0; c < cores_.size(); ++c) {
    if (launch_.cores[c].aic != aic) continue;
    if (arrivedAt_[c] != kNever) {
      anyWaiting = true;
      latest = std::max(latest, arrivedAt_[c]);
    } else if (!cores_[c].done()) {
      return;  // still running towards its SyncAll
    }
  }
  if (!anyWaiting) return;
  for (size_t c = 0; c < cores_.size(); ++c) {
    if (launch_.cores[c].aic != aic || arrivedAt_[c] == kNever) continue;
    arrivedAt_[c] = kNever;
    cores_[c].release(latest);
  }
}

LaunchProfile LaunchSim::run() {
  // The scheduler starts the blocks one after another; the stagger also keeps the cores' DMA phases from
  // running in lock step, which no real chip does.
  double interval = arch_.coreDispatchIntervalS * arch_.clockHz;
  for (size_t c = 0; c < cores_.size(); ++c) cores_[c].release(interval * launch_.cores[c].block);
  std::vector<std::pair<int, int>> done;
  while (!queue_.empty()) {
    Event e = queue_.top();
    queue_.pop();
    if (e.pool >= 0) {
      BandwidthPool& pool = pools_[static_cast<size_t>(e.pool)];
      if (e.version != pool.version()) continue;  // the pool's rates changed since
      done.clear();
      pool.finish(e.at, done);
      schedulePool(e.pool);
      for (auto [core, pipe] : done) cores_[static_cast<size_t>(core)].finishTransfer(e.at, pipe);
    } else {
      cores_[static_cast<size_t>(e.core)].progress(e.at);
    }
  }
  for (size_t c = 0; c < cores_.size(); ++c) {
    if (!cores_[c].done()) {
      throw PerfError(
          fmt::format("launch {} ({}): core {} never finishes: it waits forever at {}; the trace's sets and "
                      "waits do not pair up (was it written by the emulator?)",
                      launch_.launch, launch_.kernel, launch_.cores[c].index, cores_[c].blockedAt()));
    }
  }

  LaunchProfile prof;
  prof.kernel = launch_.kernel;
  prof.launch = launch_.launch;
  prof.gmReadBytes = gmRead_;
  prof.gmWriteBytes = gmWrite_;
  prof.writesInL2 = path_.writesInL2;
  prof.l2BypassReads = l2Bypass_;
  prof.l2HitBytes = l2HitBytes_;
  prof.bypassReadBytes = bypassReadBytes_;
  prof.clockHz = arch_.clockHz;
  prof.hbmSaturatedS = pools_[kHbm].saturatedCycles() / arch_.clockHz;
  double slowest = -1, fastest = kNever;
  for (size_t c = 0; c < cores_.size(); ++c) {
    CoreProfile cp = cores_[c].profile();
    if (cp.cycles > slowest) {
      slowest = cp.cycles;
      prof.slowestCore = static_cast<int>(c);
    }
    if (cp.cycles < fastest) {
      fastest = cp.cycles;
      prof.fastestCore = static_cast<int>(c);
    }
    prof.cores.push_back(cp);
  }
  prof.deviceS = std::max(slowest, 0.0) / arch_.clockHz;
  prof.launchS = arch_.kernelDeviceFloorS;
  prof.totalS = prof.deviceS + prof.launchS;
  if (!prof.cores.empty()) {
    const auto& busy = prof.cores[static_cast<size_t>(prof.slowestCore)].busy;
    prof.bottleneck =
        std::string(tracePipeName(static_cast<TracePipe>(std::max_element(busy.begin(), busy.end()) - busy.begin())));
  }
  // One order however the simulation interleaved the cores: by core, then program order.
  std::sort(events_.begin(), events_.end(), [](const TimelineEvent& a, const TimelineEvent& b) {
    return a.core != b.core ? a.core < b.core : a.instr < b.instr;
  });
  prof.events = std::move(events_);
  return prof;
}

}  // namespace

SimulationResult simulate(const TraceFile& trace, const ArchSpec& arch, const TimelineOptions& options) {
  SimulationResult r;
  for (const TraceLaunch& l : trace.launches) {
    LaunchSim sim(l, trace, arch, options);
    r.launches.push_back(sim.run());
    r.totalS += r.launches.back().totalS;
  }
  return r;
}

}  // namespace tilecraft::perf
