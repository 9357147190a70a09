// The generator's state and its productions, shared by generator.cpp (the elementwise, integer, row and column
// families) and patterns.cpp (the productions modelled on programs that broke the compiler). Internal to fuzz/.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "fuzz/generator.h"
#include "interp/random.h"

namespace tilecraft::fuzz::detail {

// Which of a 2-D value's extents are the tile's (true) and which are 1 (a reduced axis, or a bias row). Any two
// broadcast together; 1-D values are always full.
struct Extent {
  bool rows = true;
  bool cols = true;
  bool operator==(const Extent&) const = default;
  static constexpr Extent full() { return {true, true}; }
};

// A bound on |scalar operand|: literals up to 3, attributes up to 2, the `**` scalars up to 4.25.
constexpr double kScalarBound = 4.25;

struct Val {
  std::string name;
  Extent extent = Extent::full();
  double bound = 1;  // a bound on |value|, so chains stay finite and within every dtype's range
  bool used = false;
};

bool mentions(const std::string& expr, const std::string& name);
Extent join(Extent a, Extent b);
// Sizes that are mostly not multiples of 32 bytes, so tails and padding are exercised.
int64_t runExtent(interp::SplitMix64& rng, int64_t hi);
// `lines` each indented by `indent`, one per line.
std::string indented(const std::vector<std::string>& lines, const std::string& indent);

class Generator {
 public:
  Generator(uint64_t seed, Mix mix) : rng_(seed), mix_(mix) { program_.seed = seed; }
  FuzzProgram run();

 private:
  int64_t pick(int64_t lo, int64_t hi) { return rng_.uniformInt(lo, hi); }
  bool chance(int percent) { return pick(0, 99) < percent; }
  const char* choose(std::initializer_list<const char*> items) {
    return *(items.begin() + pick(0, static_cast<int64_t>(items.size()) - 1));
  }
  void tag(const std::string& pattern) { program_.patterns.push_back(pattern); }

  // --- statements in the compute block ---------------------------------------------------------------------
  std::string fresh() { return fmt::format("t{}", next_++); }
  const Val& recent();
  const Val& any(const std::string& other = {});
  void emit(const std::string& expr, Extent extent, double bound);
  void markUsed(const std::string& name);
  void foldUnused();
  void floatOp();
  void intOp();
  void rowOp();
  std::string scalar();

  // --- shared pieces of the float templates ----------------------------------------------------------------
  // `n` f32 attributes a0.., some with defaults, appended to `params`.
  void addAttrs(std::string& params, int n);
  // Kernel-level scalars made from the attributes with `**` (and sometimes reassigned, which makes them device
  // values): the lines to put before the loop, empty when the production is not chosen.
  std::vector<std::string> powScalars();
  // Makes sure every scalar of powScalars() is used, so the generated code has no unused variable.
  void useScalars();
  // The last value reassigned under its own name one to three times (`t5 = t5 * a0`), so the stored name is
  // written more than once.
  void reassignLast();
  // The chain of `ops` random float operations after the inputs, folded so nothing is dead, ending full-extent.
  void floatChain(int ops, bool rowOps);

  // `expr` of dtype `from` in dtype `to` (no cast when they are the same).
  static std::string castTo(const std::string& expr, const std::string& from, const std::string& to) {
    return from == to ? expr : fmt::format("cast({}, {})", expr, to);
  }
  // The program up to its tile loop: the module-level `dims` lines, the kernel's signature, `part =
  // split(extent, cores=vector_cores())` and the `prelude` lines (kernel-level scalars).
  std::string kernelHead(const std::string& dims, const std::string& params, const char* part, const char* extent,
                         const std::vector<std::string>& prelude) const;
  std::string floatFamily();
  std::string intFamily();
  // patterns.cpp
  std::string chunksFamily();
  std::string gatherFamily();
  std::string bigRowsFamily();
  std::string colStoreFamily();

  interp::SplitMix64 rng_;
  Mix mix_;
  FuzzProgram program_;
  std::vector<Val> vals_;
  std::vector<std::string> stmts_;  // the compute statements, unindented
  int next_ = 0;
  std::vector<std::string> attrs_;    // names of f32 (or i32) attributes
  std::vector<std::string> scalars_;  // kernel-level scalars made with `**`
  std::string compute_ = "f32";       // the compute dtype
  std::string family_;
  int reduceAxis_ = -1;      // rows: -1 gives Col; columns: 0 gives Row
  bool rowOps_ = false;      // the chain may reduce and scan along reduceAxis_
  bool longRows_ = false;    // rows of thousands of elements: reductions are means and maxima, no scans
  int modifierChance_ = 35;  // percent: the `**` scalars, the reassigned store, the 1-D views
};

}  // namespace tilecraft::fuzz::detail
