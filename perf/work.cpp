#include "perf/work.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace tilecraft::perf {

WorkResult modelled(OpWork work) {
  WorkResult r;
  r.ok = true;
  r.work = std::move(work);
  return r;
}

WorkResult notModelled(std::string reason) {
  WorkResult r;
  r.skipReason = std::move(reason);
  return r;
}

int computeLaneBytes(DType t, bool f16Native) {
  switch (t) {
    case DType::F16: return f16Native ? 2 : 4;
    case DType::BF16: return 4;
    case DType::I8:
    case DType::U8:
    case DType::Bool:
    case DType::I16: return 2;
    case DType::F32:
    case DType::I32: return 4;
    case DType::I64: return 8;
  }
  return 4;
}

void addCasts(OpWork& w, DType t, int laneBytes, double inElements, double outElements) {
  if (dtypeBytes(t) == laneBytes && t != DType::BF16) return;
  w.vec(VecClass::Cast, laneBytes, inElements);
  w.vec(VecClass::Cast, laneBytes, outElements);
}

namespace {

const std::map<std::string, WorkFn, std::less<>>& table() {
  static const std::map<std::string, WorkFn, std::less<>> t = [] {
    std::map<std::string, WorkFn, std::less<>> m;
    for (auto family : {elementwiseWork, normalizationWork, indexWork, matmulWork}) {
      for (const WorkEntry& e : family()) m[e.op] = e.fn;
    }
    return m;
  }();
  return t;
}

}  // namespace

WorkFn findWork(std::string_view op) {
  auto it = table().find(op);
  return it == table().end() ? nullptr : it->second;
}

std::string unmodelledReason(std::string_view op) {
  // Known CANN Bench operators whose work depends on data or on structure this model does not describe yet.
  static const std::map<std::string, std::string, std::less<>> reasons = {
      {"EngramGateFusion",
       "t_hw_us equals the inputs' MTE time; the golden's seven steps need ~38 vector instructions per "
       "element, 2.7x that, and which of them CANN Bench counts cannot be read back"},
      {"ROIAlign", "per-ROI sampling: work depends on ROI sizes in the data"},
      {"Unique", "data-dependent output size (sort plus compaction)"},
  };
  auto it = reasons.find(op);
  return it != reasons.end() ? it->second : fmt::format("no work function for operator '{}'", op);
}

std::vector<std::string> modelledOperators() {
  std::vector<std::string> names;
  for (const auto& [name, fn] : table()) names.push_back(name);
  return names;
}

}  // namespace tilecraft::perf
