// One computation of what is allocated on chip: the buffer planner's InitBuffer list (ir::Kernel::pipe) is what
// the checker's capacity check computes with the same model (dsl/sema_layout.h) and what the emitted Init() asks
// of the TPipe. These tie the three together over every example and the kernels that once overflowed UB, and
// check that an emitted layout over capacity is an internal error at compile time.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/emitter.h"
#include "codegen/tests/e2e_support.h"
#include "dsl/lexer.h"
#include "dsl/parser.h"
#include "dsl/sema.h"
#include "passes/lower.h"
#include "passes/pipeline.h"

namespace tilecraft::codegen {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> layoutPrograms() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(std::string(TILECRAFT_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() == ".tile") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  for (const char* name : {"residual_norm_bf16_buffers1", "store_col_into_1d", "extent_one_views"}) {
    out.push_back(fs::path(TILECRAFT_SOURCE_DIR) / "codegen/tests/data" / (std::string(name) + ".tile"));
  }
  return out;
}

struct Compiled {
  std::array<int64_t, 6> checkerPeak{};
  ir::Kernel kernel;
  std::string code;
};

/// The front end, the pipeline and the emitter on a one-kernel program every step accepts.
Compiled compile(const fs::path& path) {
  support::SourceManager sources;
  support::DiagnosticEngine diagnostics;
  support::FileId file = sources.addBuffer(path.filename().string(), readText(path));
  auto tokens = dsl::lex(sources, file, diagnostics);
  dsl::Ast ast = dsl::parse(tokens, diagnostics);
  dsl::SemaResult sema = dsl::check(sources, ast, diagnostics);
  Compiled out;
  EXPECT_FALSE(diagnostics.hasErrors()) << path << "\n" << support::renderText(sources, diagnostics.diagnostics());
  if (diagnostics.hasErrors() || sema.kernels.size() != 1) return out;
  ir::Module module = passes::lower(ast, sema, sources, diagnostics);
  EXPECT_TRUE(passes::runPipeline(module, passes::PipelineOptions{}, diagnostics, nullptr)) << path;
  if (module.kernels.size() != 1) return out;
  out.checkerPeak = sema.kernels[0].peakBytes;
  out.kernel = module.kernels[0];
  out.code = emitAscendC(out.kernel, EmitOptions{}, diagnostics);
  EXPECT_FALSE(diagnostics.hasErrors()) << path << "\n" << support::renderText(sources, diagnostics.diagnostics());
  return out;
}

/// Bytes per memory that the emitted Init() hands out, read from the C++ text alone: each member's position
/// (its memory) from its declaration, each InitBuffer's copies and bytes from its call.
std::array<int64_t, 6> emittedInitBytes(const std::string& code) {
  static const std::map<std::string, dsl::Mem> positions = {
      {"VECIN", dsl::Mem::UB}, {"VECOUT", dsl::Mem::UB}, {"VECCALC", dsl::Mem::UB}, {"A1", dsl::Mem::L1},
      {"B1", dsl::Mem::L1},    {"A2", dsl::Mem::L0A},    {"B2", dsl::Mem::L0B},     {"CO1", dsl::Mem::L0C}};
  std::map<std::string, dsl::Mem> memberMem;
  std::regex member(R"((?:TQue|TQueBind|TBuf)<(?:QuePosition|TPosition)::(\w+)[^>]*> (\w+);)");
  for (std::sregex_iterator it(code.begin(), code.end(), member), end; it != end; ++it) {
    memberMem[(*it)[2]] = positions.at((*it)[1]);
  }
  std::array<int64_t, 6> bytes{};
  std::regex init(R"(pipe_\.InitBuffer\((\w+), (\d+)(?:, (\d+))?\);)");
  for (std::sregex_iterator it(code.begin(), code.end(), init), end; it != end; ++it) {
    const std::smatch& m = *it;
    EXPECT_TRUE(memberMem.count(m[1])) << "InitBuffer of an undeclared member " << m[1];
    int64_t total = m[3].matched ? std::stoll(m[2]) * std::stoll(m[3]) : std::stoll(m[2]);
    bytes[static_cast<size_t>(memberMem[m[1]])] += total;
  }
  return bytes;
}

// For every example and the kernels that once overflowed: the emitted InitBuffer bytes per memory are the
// planner's layout end, fit the memory, and the checker's peak (what it accepted) is never below them.
TEST(Layout, CheckerPlannerAndEmittedInitBuffersAgreeOnEveryExample) {
  int compared = 0, equal = 0;
  for (const fs::path& path : layoutPrograms()) {
    SCOPED_TRACE(path.stem().string());
    Compiled c = compile(path);
    ASSERT_FALSE(c.code.empty());
    std::array<int64_t, 6> emitted = emittedInitBytes(c.code);
    for (dsl::Mem mem : {dsl::Mem::UB, dsl::Mem::L1, dsl::Mem::L0A, dsl::Mem::L0B, dsl::Mem::L0C}) {
      auto m = static_cast<size_t>(mem);
      SCOPED_TRACE(dsl::memName(mem));
      EXPECT_EQ(emitted[m], c.kernel.plannedBytes[m]);
      EXPECT_LE(emitted[m], dsl::memCapacityBytes(mem));
      EXPECT_GE(c.checkerPeak[m], emitted[m]);
      if (emitted[m] == 0) continue;
      ++compared;
      equal += c.checkerPeak[m] == emitted[m];
    }
  }
  // The checker sees a few buffers lowering drops (a broadcast it cannot know is free): nearly all are equal.
  EXPECT_GT(compared, 40);
  EXPECT_GE(equal * 20, compared * 19) << equal << " of " << compared;
}

// The repro that overflowed UB at run time: buffers=1, bf16 queues, f32 compute, N up to 8192. Its plan is five
// queues of one 16 KiB copy each, then one TBuf, and Init() says exactly that.
TEST(Layout, TheEmittedInitIsThePlannersInitBufferList) {
  Compiled c = compile(fs::path(TILECRAFT_SOURCE_DIR) / "codegen/tests/data/residual_norm_bf16_buffers1.tile");
  ASSERT_FALSE(c.code.empty());
  std::vector<std::string> calls;
  std::regex init(R"(pipe_\.InitBuffer\([^;]*;)");
  for (std::sregex_iterator it(c.code.begin(), c.code.end(), init), end; it != end; ++it) calls.push_back(it->str());
  ASSERT_EQ(calls.size(), c.kernel.pipe.size());
  int64_t queues = 0;
  for (size_t i = 0; i < calls.size(); ++i) {
    const ir::PipeBuffer& p = c.kernel.pipe[i];
    std::string expected =
        p.queue == ir::kNone ? fmt::format(", {});", p.bytes) : fmt::format(", {}, {});", p.copies, p.bytes);
    EXPECT_NE(calls[i].find(expected), std::string::npos) << calls[i];
    queues += p.queue != ir::kNone;
  }
  EXPECT_EQ(queues, 5);
  EXPECT_EQ(c.kernel.pipe.back().queue, ir::kNone);
  EXPECT_EQ(c.kernel.pipe.back().offset, 5 * 16384);
  EXPECT_LE(c.kernel.plannedBytes[static_cast<size_t>(dsl::Mem::UB)], dsl::memCapacityBytes(dsl::Mem::UB));
}

// A plan whose InitBuffer calls exceed a memory (which the planner refuses as a user error first) reaching the
// emitter is a compiler bug: the internal assert at compile time, never an overflow in InitBuffer at run time.
TEST(LayoutDeathTest, AnEmittedLayoutOverCapacityIsAnInternalError) {
  Compiled c = compile(fs::path(TILECRAFT_SOURCE_DIR) / "examples/elementwise/add.tile");
  ASSERT_FALSE(c.kernel.pipe.empty());
  ir::Kernel k = c.kernel;
  int64_t end = 0;
  for (ir::PipeBuffer& p : k.pipe) {
    p.offset = end;
    p.bytes = 65536;
    end += p.bytes * p.copies;
  }
  ASSERT_GT(end, dsl::memCapacityBytes(dsl::Mem::UB));
  support::DiagnosticEngine diagnostics;
  EXPECT_DEATH(emitAscendC(k, EmitOptions{}, diagnostics),
               fmt::format("tilecraft internal error: .*check 'used <= dsl::memCapacityBytes\\(mem\\)' failed: "
                           "kernel 'add': the emitted InitBuffer calls take {} bytes of UB, which holds 196608",
                           end));
}

}  // namespace
}  // namespace tilecraft::codegen
