#include "harness/record.h"

#include <cmath>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tilecraft::harness {
namespace {

// One table: a failure's name in records, reports and the taxonomy, in report order.
struct FailureRow {
  Failure failure;
  const char* name;
};
constexpr FailureRow kFailures[] = {
    {Failure::None, "none"},
    {Failure::Syntax, "syntax"},
    {Failure::UnknownApi, "unknown_api"},
    {Failure::Signature, "signature"},
    {Failure::Dtype, "dtype"},
    {Failure::MemoryCheck, "alignment_memory_check"},
    {Failure::Hazard, "hazard"},
    {Failure::NumericMismatch, "numeric_mismatch"},
    {Failure::AntiCheat, "anti_cheat"},
    {Failure::Crash, "crash"},
    {Failure::Timeout, "timeout"},
    {Failure::SandboxViolation, "sandbox_violation"},
    {Failure::GoldenError, "golden_error"},
    {Failure::NotEvaluable, "not_evaluable"},
    {Failure::NoSolution, "no_solution"},
};

// JSON has no inf/nan: figures that are not finite are written as null and read back as 0.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

double readNumber(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return 0;
  if (!it->is_number()) throw std::runtime_error(fmt::format("'{}' is not a number", key));
  return it->get<double>();
}

}  // namespace

const char* failureName(Failure f) {
  for (const FailureRow& row : kFailures) {
    if (row.failure == f) return row.name;
  }
  return "none";
}

std::optional<Failure> failureFromName(const std::string& name) {
  for (const FailureRow& row : kFailures) {
    if (name == row.name) return row.failure;
  }
  return std::nullopt;
}

std::string recordKey(const Record& r) { return fmt::format("{}/{}/{}", r.task, r.caseId, r.sample); }

std::string recordToJson(const Record& r) {
  nlohmann::ordered_json j;
  j["task"] = r.task;
  j["category"] = r.category;
  j["level"] = r.level;
  j["case"] = r.caseId;
  j["sample"] = r.sample;
  j["kind"] = r.solutionKind;
  j["instantiation"] = r.instantiation;
  j["compiled"] = r.compiled;
  j["correct"] = r.correct;
  j["failure"] = failureName(r.failure);
  j["message"] = r.message;
  j["rule"] = r.rule;
  j["mean_rel_error"] = number(r.meanRelError);
  j["max_rel_error"] = number(r.maxRelError);
  j["tau"] = number(r.tau);
  j["sim_us"] = number(r.simUs);
  j["limit_us"] = number(r.limitUs);
  j["eager_us"] = number(r.eagerUs);
  j["eager_source"] = r.eagerSource;
  j["bottleneck"] = r.bottleneck;
  nlohmann::ordered_json pipes = nlohmann::ordered_json::object();
  for (const auto& [pipe, us] : r.pipeBusyUs) pipes[pipe] = number(us);
  j["pipe_busy_us"] = pipes;
  j["wall_s"] = number(r.wallSeconds);
  j["kernel_s"] = number(r.kernelSeconds);
  // Invalid UTF-8 from a kernel's output must not make the line unreadable: replace it.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<Record> parseRecord(const std::string& line, std::string* error) {
  try {
    nlohmann::json j = nlohmann::json::parse(line);
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
    for (const char* key : {"task", "case", "sample", "failure"}) {
      if (!j.contains(key)) throw std::runtime_error(fmt::format("missing '{}'", key));
    }
    Record r;
    r.task = j.at("task").get<std::string>();
    r.category = j.value("category", "");
    r.level = j.value("level", 0);
    r.caseId = j.at("case").get<std::string>();
    r.sample = j.at("sample").get<int>();
    r.solutionKind = j.value("kind", "");
    r.instantiation = j.value("instantiation", "");
    r.compiled = j.value("compiled", false);
    r.correct = j.value("correct", false);
    std::string failure = j.at("failure").get<std::string>();
    std::optional<Failure> f = failureFromName(failure);
    if (!f) throw std::runtime_error(fmt::format("unknown failure '{}'", failure));
    r.failure = *f;
    r.message = j.value("message", "");
    r.rule = j.value("rule", "");
    r.meanRelError = readNumber(j, "mean_rel_error");
    r.maxRelError = readNumber(j, "max_rel_error");
    r.tau = readNumber(j, "tau");
    r.simUs = readNumber(j, "sim_us");
    r.limitUs = readNumber(j, "limit_us");
    r.eagerUs = readNumber(j, "eager_us");
    r.eagerSource = j.value("eager_source", "");
    r.bottleneck = j.value("bottleneck", "");
    if (auto it = j.find("pipe_busy_us"); it != j.end() && it->is_object()) {
      for (auto p = it->begin(); p != it->end(); ++p) r.pipeBusyUs[p.key()] = p->is_number() ? p->get<double>() : 0;
    }
    r.wallSeconds = readNumber(j, "wall_s");
    r.kernelSeconds = readNumber(j, "kernel_s");
    return r;
  } catch (const std::exception& e) {
    // nlohmann's messages start with "[json.exception...]": keep the part after it.
    std::string what = e.what();
    if (size_t close = what.find("] "); what.rfind("[json", 0) == 0 && close != std::string::npos) {
      what = what.substr(close + 2);
    }
    *error = what;
    return std::nullopt;
  }
}

}  // namespace tilecraft::harness
