#include "harness/judge.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>

#include <fmt/format.h>

namespace tilecraft::harness {
namespace {

// CANN Bench's default thresholds (kernel_eval/utils/thresholds.py): tau per output dtype, and the small-value
// region below which relative error is meaningless.
struct DtypeRule {
  dsl::DType dtype;
  double tau;
  double smallValue;  // |golden| below this is the small-value region
  double atol;        // KernelBench's allclose tolerance (atol = rtol)
};
constexpr DtypeRule kRules[] = {
    {dsl::DType::F16, 0x1p-10, 0x1p-11, 1e-2},
    {dsl::DType::BF16, 0x1p-7, 0x1p-8, 1e-2},
    {dsl::DType::F32, 0x1p-13, 0x1p-14, 1e-4},
};

const DtypeRule* ruleOf(dsl::DType t) {
  for (const DtypeRule& r : kRules) {
    if (r.dtype == t) return &r;
  }
  return nullptr;
}

double maxFinite(dsl::DType t) {
  switch (t) {
    case dsl::DType::F16: return 65504.0;
    case dsl::DType::BF16: return 3.3895313892515355e38;
    default: return std::numeric_limits<float>::max();
  }
}

// The first few wrong positions, for the repair feedback: "[12] 1.5 vs 1.25".
std::string firstWrong(const std::vector<size_t>& positions, const interp::HostTensor& a, const interp::HostTensor& g) {
  std::string out;
  for (size_t i = 0; i < positions.size() && i < 3; ++i) {
    size_t p = positions[i];
    out += fmt::format("{}[{}] {:.6g} vs {:.6g}", i ? ", " : "", p, a.data[p], g.data[p]);
  }
  return out;
}

bool allEqualTo(const interp::HostTensor& t, double v) {
  return std::all_of(t.data.begin(), t.data.end(), [&](double x) { return x == v; });
}

bool sameValues(const interp::HostTensor& a, const interp::HostTensor& b) {
  if (a.data.size() != b.data.size()) return false;
  for (size_t i = 0; i < a.data.size(); ++i) {
    bool bothNan = std::isnan(a.data[i]) && std::isnan(b.data[i]);
    if (!bothNan && a.data[i] != b.data[i]) return false;
  }
  return true;
}

// Taxonomy of messages: the first pattern that matches wins; a table, so a new class is one row.
struct Pattern {
  const char* regex;
  Failure failure;
};
const Pattern kCompilePatterns[] = {
    {R"(no member named|has no member|is not a member of|was not declared|undeclared|unknown (name|builtin|function)|not a builtin|undefined name|is not defined|does not name a type)",
     Failure::UnknownApi},
    {R"(no matching (function|member function|constructor)|too (many|few) arguments|takes \d+ argument|expects \d+ argument|candidate|wrong number of)",
     Failure::Signature},
    {R"(dtype|bfloat16|half\b|invalid conversion|cannot convert|narrowing)", Failure::Dtype},
    {R"(capacity|exceeds|overflow|does not fit|align|out of (range|bounds))", Failure::MemoryCheck},
};
const Pattern kCheckPatterns[] = {
    {R"(with no queue, flag or barrier|SetFlag|WaitFlag|DeQue|EnQue|SyncAll|deadlock|queue|barrier|race)",
     Failure::Hazard},
    {R"(dtype|not supported for|unsupported)", Failure::Dtype},
};

Failure classify(const std::string& text, const Pattern* begin, const Pattern* end, Failure fallback) {
  // The first error line decides: later ones are often consequences of it.
  std::string first = text;
  static const std::regex errorLine(R"(error:[^\n]*)");
  std::smatch m;
  if (std::regex_search(text, m, errorLine)) first = m.str();
  for (const Pattern* p = begin; p != end; ++p) {
    if (std::regex_search(first, std::regex(p->regex, std::regex::icase))) return p->failure;
  }
  return fallback;
}

}  // namespace

const char* ruleName(Rule rule) { return rule == Rule::Cann ? "cann" : "allclose"; }

std::optional<Rule> ruleFromName(const std::string& name) {
  if (name == "cann") return Rule::Cann;
  if (name == "allclose") return Rule::AllClose;
  return std::nullopt;
}

double tolerance(Rule rule, const Task& task, dsl::DType dtype) {
  const DtypeRule* r = ruleOf(dtype);
  if (r == nullptr) return 0;  // integers and bool: exact
  if (rule == Rule::AllClose) return r->atol;
  auto it = task.precision.find(dtype);
  return it != task.precision.end() && it->second.meanRel > 0 ? it->second.meanRel : r->tau;
}

Comparison compareOutput(const std::string& name, const interp::HostTensor& actual, const interp::HostTensor& golden,
                         Rule rule, const Task& task) {
  Comparison c;
  const DtypeRule* r = ruleOf(golden.dtype);
  c.tau = tolerance(rule, task, golden.dtype);
  size_t n = std::min(actual.data.size(), golden.data.size());
  std::vector<size_t> wrong;
  if (r == nullptr) {
    for (size_t i = 0; i < n; ++i) {
      if (actual.data[i] != golden.data[i]) wrong.push_back(i);
    }
    c.pass = wrong.empty();
    if (!c.pass) {
      c.maxRelError = 1;
      c.message = fmt::format("{}: {} of {} values differ (integers must match exactly): {}", name, wrong.size(), n,
                              firstWrong(wrong, actual, golden));
    }
    return c;
  }

  double maxRelAllowed = c.tau * 10;
  auto pit = task.precision.find(golden.dtype);
  if (rule == Rule::Cann && pit != task.precision.end() && pit->second.maxRel > 0) maxRelAllowed = pit->second.maxRel;
  double sum = 0, maxRel = 0;
  size_t counted = 0, smallWrong = 0, worst = 0;
  for (size_t i = 0; i < n; ++i) {
    double a = actual.data[i], g = golden.data[i];
    if (std::isnan(a) || std::isnan(g)) {
      if (std::isnan(a) != std::isnan(g)) wrong.push_back(i);
      continue;
    }
    if (std::isinf(a) && std::isinf(g)) {
      if ((a > 0) != (g > 0)) wrong.push_back(i);
      continue;
    }
    // Saturation at the dtype's edge: one side inf, the other finite, compare with the largest finite value.
    if (std::isinf(a)) a = std::copysign(maxFinite(golden.dtype), a);
    if (std::isinf(g)) g = std::copysign(maxFinite(golden.dtype), g);
    double diff = std::fabs(a - g);
    if (rule == Rule::AllClose) {
      if (diff > c.tau + c.tau * std::fabs(g)) wrong.push_back(i);
      double rel = diff / (std::fabs(g) + 1e-7);
      sum += rel;
      maxRel = std::max(maxRel, rel);
      ++counted;
      continue;
    }
    // CANN Bench has no same-precision CPU run here to compare error counts with in the small-value region, so
    // there an absolute bound of the region's own size stands in for the relative one (docs/bench.md).
    if (std::fabs(g) < r->smallValue) {
      if (diff > r->smallValue) ++smallWrong, wrong.push_back(i);
      continue;
    }
    double rel = diff / (std::fabs(g) + 1e-7);
    if (rel >= maxRelAllowed) wrong.push_back(i);
    sum += rel;
    if (rel > maxRel) maxRel = rel, worst = i;
    ++counted;
  }
  c.meanRelError = counted > 0 ? sum / static_cast<double>(counted) : 0;
  c.maxRelError = maxRel;
  if (rule == Rule::AllClose) {
    c.pass = wrong.empty();
    if (!c.pass) {
      c.message = fmt::format("{}: {} of {} values outside allclose(atol=rtol={:g}); max rel error {:.3g}; first: {}",
                              name, wrong.size(), n, c.tau, maxRel, firstWrong(wrong, actual, golden));
    }
    return c;
  }
  bool meanOk = c.meanRelError < c.tau, maxOk = maxRel < maxRelAllowed;
  c.pass = meanOk && maxOk && wrong.empty();
  if (!c.pass) {
    // Every value within the max bound but the mean over it: the worst value is the one to look at.
    std::string where = wrong.empty() ? fmt::format("worst: {}", firstWrong({worst}, actual, golden))
                                      : fmt::format("first: {}", firstWrong(wrong, actual, golden));
    c.message = fmt::format(
        "{}: mean rel error {:.3g} (limit {:.3g}), max rel error {:.3g} (limit {:.3g}), {} of {} "
        "values over the max{}; {}",
        name, c.meanRelError, c.tau, maxRel, maxRelAllowed, wrong.size(), n,
        smallWrong ? fmt::format(" ({} near zero)", smallWrong) : "", where);
  }
  return c;
}

std::optional<std::string> trivialOutput(const std::string& name, const interp::HostTensor& actual,
                                         const interp::HostTensor& golden, const std::vector<NamedTensor>& inputs) {
  if (actual.data.size() < 2) return std::nullopt;  // a scalar output cannot be told from a constant
  double first = actual.data.front();
  if (allEqualTo(actual, first) && !allEqualTo(golden, first)) {
    return first == 0 ? fmt::format("{} is all zeros but the golden is not", name)
                      : fmt::format("{} is the constant {:g} everywhere but the golden is not", name, first);
  }
  for (const NamedTensor& in : inputs) {
    if (sameValues(actual, in.tensor) && !sameValues(golden, in.tensor)) {
      return fmt::format("{} is a copy of input '{}' but the golden is not", name, in.name);
    }
  }
  return std::nullopt;
}

Failure classifyCompileError(const std::string& diagnostics) {
  return classify(diagnostics, std::begin(kCompilePatterns), std::end(kCompilePatterns), Failure::Syntax);
}

Failure classifyCheckFailure(const std::string& message) {
  return classify(message, std::begin(kCheckPatterns), std::end(kCheckPatterns), Failure::MemoryCheck);
}

Failure classifyRun(const runner::RunResult& result) {
  switch (result.status) {
    case runner::RunStatus::CheckFailed: return classifyCheckFailure(result.message);
    case runner::RunStatus::TimedOut: return Failure::Timeout;
    case runner::RunStatus::SandboxViolation:
    case runner::RunStatus::ForgedVerdict: return Failure::SandboxViolation;
    case runner::RunStatus::UsageError: return Failure::Signature;
    default: return Failure::Crash;
  }
}

}  // namespace tilecraft::harness
