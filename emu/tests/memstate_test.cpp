// The range-based check state (emu/memstate.h) against the per-byte and per-block model it replaced: the same
// random accesses must give the same verdicts, the same first failing block and the same state afterwards.
#include <random>

#include "emu_test_util.h"

using tcemu::testing::EmuTest;

namespace {

using tcemu::BlockState;
using tcemu::kBlock;
using tcemu::kPipeCount;
using tcemu::Pipe;

TEST(WrittenBitsTest, MatchesAByteShadowUnderRandomFills) {
  constexpr uint32_t size = 3 * 4096 + 96;  // summary words, a partial last summary word and a partial word
  tcemu::WrittenBits bits;
  bits.reset(size);
  std::vector<uint8_t> ref(size, 0);
  std::mt19937 rng(7);
  for (int step = 0; step < 3000; ++step) {
    uint32_t a = rng() % size;
    uint32_t len = 1 + rng() % (step % 3 == 0 ? 5000 : 70);
    uint32_t b = std::min(size, a + len);
    switch (rng() % 3) {
      case 0:
        bits.set(a, b);
        std::fill(ref.begin() + a, ref.begin() + b, 1);
        break;
      case 1: {  // byte-wise put, as a local copy carries the bits along
        std::vector<uint8_t> in(b - a);
        for (auto& v : in) v = static_cast<uint8_t>(rng() % 4 != 0);
        bits.put(a, in.data(), in.size());
        std::copy(in.begin(), in.end(), ref.begin() + a);
        break;
      }
      default: break;
    }
    uint32_t qa = rng() % size, qb = std::min(size, qa + 1 + static_cast<uint32_t>(rng() % 9000));
    uint64_t want = qb;
    for (uint32_t i = qa; i < qb; ++i) {
      if (!ref[i]) {
        want = i;
        break;
      }
    }
    ASSERT_EQ(bits.firstUnset(qa, qb), want) << "step " << step << " [" << qa << ", " << qb << ")";
    bool any = std::find(ref.begin() + qa, ref.begin() + qb, 1) != ref.begin() + qb;
    ASSERT_EQ(bits.anySet(qa, qb), any) << "step " << step;
    uint32_t at = rng() % size;
    ASSERT_EQ(bits[at], ref[at]);
    std::vector<uint8_t> got(qb - qa);
    bits.get(qa, got.data(), got.size());
    ASSERT_TRUE(std::equal(got.begin(), got.end(), ref.begin() + qa));
  }
}

TEST(OrderMapTest, RunsSplitAndJoinAcrossWordsAndSummaryWords) {
  tcemu::OrderMap m;
  m.reset(9000);  // three summary words of heads
  EXPECT_EQ(m.headAtOrBefore(8999), 0u);
  EXPECT_EQ(m.nextHead(0), 9000u);
  m.split(4100);
  m.split(70);
  m.state(70).writer = 5;
  EXPECT_EQ(m.headAtOrBefore(4099), 70u);
  EXPECT_EQ(m.headAtOrBefore(8999), 4100u);
  EXPECT_EQ(m.nextHead(70), 4100u);
  EXPECT_EQ(m.nextHead(69), 70u);
  EXPECT_EQ(m.state(4100).writer, 0u) << "a split copies the state of the run it cuts";
  m.clearHeads(1, 8999);
  EXPECT_EQ(m.headAtOrBefore(8999), 0u);
  EXPECT_EQ(m.nextHead(0), 9000u);
  m.split(8999);
  EXPECT_EQ(m.nextHead(5000), 8999u);
  m.join(8999);
  EXPECT_EQ(m.nextHead(5000), 9000u);
}

// The per-block model the range state replaced: for each 32-byte block in address order, the writer check, then
// (for a write) the readers in pipe order; blocks before a failing one are recorded.
class BlockModel {
 public:
  explicit BlockModel(uint32_t blocks) : blocks_(blocks) {}
  struct Verdict {
    bool ok = true;
    uint32_t other = 0;  // instruction index
    uint32_t addr = 0;
    bool otherIsWriter = false;
  };
  Verdict access(uint32_t idx, int q, uint32_t first, uint32_t last, bool isWrite) {
    for (uint32_t b = first; b <= last; ++b) {
      BlockState& bs = blocks_[b];
      if (bs.writer) {
        int p = pipeOf_[bs.writer - 1];
        if (p != q && seqOf_[bs.writer - 1] > know_[q][p]) return {false, bs.writer - 1, b * kBlock, true};
      }
      if (isWrite) {
        unsigned others = bs.readerPipes & ~(1u << q) & ~(1u << static_cast<int>(Pipe::S));
        for (int p = 0; others; ++p, others >>= 1) {
          if (!(others & 1u)) continue;
          uint32_t r = bs.readers[p];
          if (seqOf_[r - 1] > know_[q][p]) return {false, r - 1, b * kBlock, false};
        }
        bs.writer = idx + 1;
        bs.readerPipes = 0;
      } else {
        bs.readers[q] = idx + 1;
        bs.readerPipes = static_cast<uint8_t>(bs.readerPipes | (1u << q));
      }
    }
    return {};
  }
  uint32_t begin(int pipe) {
    pipeOf_.push_back(pipe);
    seqOf_.push_back(++seq_[pipe]);
    return static_cast<uint32_t>(pipeOf_.size() - 1);
  }
  void sync(int src, int dst) {
    uint32_t k[kPipeCount];
    for (int p = 0; p < kPipeCount; ++p) k[p] = know_[src][p];
    k[src] = seq_[src];
    for (int p = 0; p < kPipeCount; ++p) know_[dst][p] = std::max(know_[dst][p], k[p]);
  }
  void barrier() {
    for (int q = 0; q < kPipeCount; ++q)
      for (int p = 0; p < kPipeCount; ++p) know_[q][p] = seq_[p];
  }

 private:
  std::vector<BlockState> blocks_;
  std::vector<int> pipeOf_;
  std::vector<uint32_t> seqOf_;
  uint32_t seq_[kPipeCount] = {};
  uint32_t know_[kPipeCount][kPipeCount] = {};
};

class OrderStateTest : public EmuTest {};

// Random reads and writes on several pipes, with flags and barriers between some of them, on a local memory and
// on GM (whose state is paged): the core must report exactly the hazards the per-block model finds, at the same
// block, naming the same instruction, and keep the same state after a failure.
void runDifferential(tcemu::Core& core, bool gm, uint32_t seed) {
  constexpr uint32_t bytes = 96 * 1024;  // GM: crosses page boundaries of the ordering state
  constexpr Pipe pipes[] = {Pipe::S, Pipe::V, Pipe::MTE1, Pipe::MTE2, Pipe::MTE3};
  uint8_t* gmBase = nullptr;
  if (gm) {
    gmBase = static_cast<uint8_t*>(AscendC::GmAlloc(bytes + 4096));
    gmBase += 4096 - 96;  // not page aligned
  }
  tcemu::TensorRef t;
  t.mem = tcemu::Mem::UB;
  t.offset = 0;
  t.bufStart = 0;
  t.bufEnd = bytes;
  t.valid = true;
  uintptr_t base = gm ? reinterpret_cast<uintptr_t>(gmBase) : 0;
  uint32_t firstBlock = static_cast<uint32_t>(base / kBlock);
  BlockModel model(bytes / kBlock + 2);  // block i of the model is block firstBlock + i of the memory
  std::vector<std::string> names;
  names.reserve(6000);

  // Everything written once, so the never-written rule stays out of the way.
  uint32_t init = core.begin(Pipe::MTE2, tcemu::OpClass::DmaIn, "init", tcemu::SrcLoc::current());
  model.begin(static_cast<int>(Pipe::MTE2));
  if (gm) core.writeGm(init, gmBase, bytes, "init", tcemu::SrcLoc::current());
  else core.write(init, t, 0, bytes, "init", tcemu::SrcLoc::current());
  model.access(init, static_cast<int>(Pipe::MTE2), 0, static_cast<uint32_t>((base + bytes - 1) / kBlock) - firstBlock,
               true);
  core.barrierAll();
  model.barrier();

  std::mt19937 rng(seed);
  int hazards = 0, clean = 0;
  for (int step = 0; step < 6000; ++step) {
    uint32_t kind = rng() % 10;
    if (kind == 0) {
      int src = static_cast<int>(pipes[rng() % 5]), dst = static_cast<int>(pipes[rng() % 5]);
      core.acquire(static_cast<Pipe>(dst), core.publish(static_cast<Pipe>(src)));
      model.sync(src, dst);
      continue;
    }
    if (kind == 1 && rng() % 4 == 0) {
      core.barrierAll();
      model.barrier();
      continue;
    }
    Pipe pipe = pipes[rng() % 5];
    bool isWrite = rng() % 2;
    uint32_t len = 1 + rng() % (rng() % 8 == 0 ? 20000 : 300);
    uint32_t off = rng() % (bytes - len + 1);
    names.push_back("op" + std::to_string(step));
    uint32_t idx = core.begin(pipe, tcemu::OpClass::Vector, names.back().c_str(), tcemu::SrcLoc::current());
    ASSERT_EQ(model.begin(static_cast<int>(pipe)), idx);
    const char* what = isWrite ? "w" : "r";
    std::string got;
    try {
      if (gm) {
        if (isWrite) core.writeGm(idx, gmBase + off, len, what, tcemu::SrcLoc::current());
        else core.readGm(idx, gmBase + off, len, what, tcemu::SrcLoc::current());
      } else {
        if (isWrite) core.write(idx, t, off, len, what, tcemu::SrcLoc::current());
        else core.read(idx, t, off, len, what, tcemu::SrcLoc::current());
      }
    } catch (const tcemu::CheckError& e) {
      got = e.message;
    }
    auto v = model.access(idx, static_cast<int>(pipe), static_cast<uint32_t>((base + off) / kBlock) - firstBlock,
                          static_cast<uint32_t>((base + off + len - 1) / kBlock) - firstBlock, isWrite);
    if (v.ok) {
      ASSERT_EQ(got, "") << "step " << step;
      ++clean;
      continue;
    }
    ++hazards;
    const tcemu::Instr& o = core.instr(v.other);
    const char* verb = isWrite ? "overwrites" : "reads";
    std::string want = std::string("cross-pipe hazard: ") + what + " on pipe " + tcemu::pipeName(pipe) + " " + verb +
                       " data that " + o.name + " on pipe " + tcemu::pipeName(o.pipe) + " " +
                       (v.otherIsWriter ? "wrote" : "still reads") + ", with no queue, flag or barrier between them " +
                       "(block at byte " + std::to_string(gm ? 0u : v.addr) + ")";
    ASSERT_EQ(got.substr(0, want.size()), want) << "step " << step;
  }
  // Both outcomes must actually occur, or the comparison proves little.
  EXPECT_GT(hazards, 100);
  EXPECT_GT(clean, 100);
  if (gm) AscendC::GmFree(gmBase - (4096 - 96));
}

TEST_F(OrderStateTest, LocalMemoryMatchesThePerBlockModel) { runDifferential(core(), false, 1); }

TEST_F(OrderStateTest, GlobalMemoryMatchesThePerBlockModel) { runDifferential(core(), true, 3); }

// Strided operands cut a memory into one run per block; the state stays correct, and a whole-tile write joins
// the runs again.
TEST_F(OrderStateTest, StridedAccessesThenAWholeWrite) {
  tcemu::TensorRef t;
  t.mem = tcemu::Mem::UB;
  t.bufEnd = 64 * 1024;
  t.valid = true;
  tcemu::Core& c = core();
  uint32_t w = c.begin(Pipe::MTE2, tcemu::OpClass::DmaIn, "fill", tcemu::SrcLoc::current());
  c.writeStrided(w, t, 0, 32, 64, 1024, "fill dst", tcemu::SrcLoc::current());  // every other block
  uint32_t r = c.begin(Pipe::V, tcemu::OpClass::Vector, "Abs", tcemu::SrcLoc::current());
  // Block 1 (bytes 32..63) was never written.
  EXPECT_EQ(tcemu::testing::checkMessage([&] { c.read(r, t, 0, 64, "Abs src", tcemu::SrcLoc::current()); }),
            "Abs src reads UB bytes [0, 64) that nothing wrote: byte 32 (32 into the operand) was never written; "
            "hint: copy data in or Duplicate a value before reading");
  EXPECT_EQ(tcemu::testing::checkMessage([&] { c.read(r, t, 64 * 5, 32, "Abs src", tcemu::SrcLoc::current()); }),
            "cross-pipe hazard: Abs src on pipe V reads data that fill on pipe MTE2 wrote, with no queue, flag or "
            "barrier between them (block at byte 320); hint: pass the tensor through a TQue (EnQue/DeQue), or "
            "SetFlag<HardEvent::MTE2_V>/WaitFlag<HardEvent::MTE2_V> between the two calls");
  c.barrierAll();
  uint32_t r2 = c.begin(Pipe::V, tcemu::OpClass::Vector, "Abs", tcemu::SrcLoc::current());
  c.readStrided(r2, t, 0, 32, 64, 1024, "Abs src", tcemu::SrcLoc::current());
  uint32_t d = c.begin(Pipe::MTE2, tcemu::OpClass::DmaIn, "DataCopy", tcemu::SrcLoc::current());
  EXPECT_EQ(
      tcemu::testing::checkMessage([&] { c.write(d, t, 0, 64 * 1024, "DataCopy dst", tcemu::SrcLoc::current()); }),
      "cross-pipe hazard: DataCopy dst on pipe MTE2 overwrites data that Abs on pipe V still reads, with no "
      "queue, flag or barrier between them (block at byte 0); hint: pass the tensor through a TQue "
      "(EnQue/DeQue), or SetFlag<HardEvent::V_MTE2>/WaitFlag<HardEvent::V_MTE2> between the two calls");
  c.barrierAll();
  uint32_t d2 = c.begin(Pipe::MTE2, tcemu::OpClass::DmaIn, "DataCopy", tcemu::SrcLoc::current());
  c.write(d2, t, 0, 64 * 1024, "DataCopy dst", tcemu::SrcLoc::current());
  uint32_t v = c.begin(Pipe::V, tcemu::OpClass::Vector, "Exp", tcemu::SrcLoc::current());
  EXPECT_EQ(tcemu::testing::checkMessage([&] { c.read(v, t, 64 * 1000 + 4, 8, "Exp src", tcemu::SrcLoc::current()); }),
            "cross-pipe hazard: Exp src on pipe V reads data that DataCopy on pipe MTE2 wrote, with no queue, flag or "
            "barrier between them (block at byte 64000); hint: pass the tensor through a TQue (EnQue/DeQue), or "
            "SetFlag<HardEvent::MTE2_V>/WaitFlag<HardEvent::MTE2_V> between the two calls");
}

}  // namespace
