#include "service/verdict_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tilecraft::service {
namespace {

using nlohmann::json;

// Doubles print in nlohmann's shortest round-trip form.
json caseJson(const CaseVerdict& c) {
  json j = {{"case", c.caseId},     {"compiled", c.compiled},     {"correct", c.correct},  {"failure", c.failure},
            {"message", c.message}, {"sim_us", c.simUs},          {"eager_us", c.eagerUs}, {"limit_us", c.limitUs},
            {"speedup", c.speedup}, {"limit_score", c.limitScore}};
  if (!c.bottleneck.empty()) j["bottleneck"] = c.bottleneck;
  return j;
}

}  // namespace

bool parseJudgeRequest(const std::string& text, JudgeRequest* request, std::string* error) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "the request is not a JSON object";
    return false;
  }
  if (!j.contains("task") || !j["task"].is_string()) {
    *error = "'task' must be a string: a task name or a task folder";
    return false;
  }
  request->task = j["task"].get<std::string>();
  if (!j.contains("solution") || !j["solution"].is_object()) {
    *error = "'solution' must be an object: {\"kind\": \"dsl\", \"source\": \"...\"}";
    return false;
  }
  const json& s = j["solution"];
  if (!s.contains("kind") || !s["kind"].is_string()) {
    *error = "'solution.kind' must be \"dsl\" or \"ascendc\"";
    return false;
  }
  request->solution.kind = s["kind"].get<std::string>();
  bool hasSource = s.contains("source"), hasFiles = s.contains("files");
  if (hasSource == hasFiles) {
    *error = "'solution' needs exactly one of 'source' (a DSL kernel's text) and 'files' ({path: text})";
    return false;
  }
  if (hasSource) {
    if (!s["source"].is_string() || request->solution.kind != "dsl") {
      *error = "'solution.source' is a DSL kernel's text; an AscendC project is sent as 'files'";
      return false;
    }
    request->solution.files["kernel.tile"] = s["source"].get<std::string>();
  } else {
    if (!s["files"].is_object()) {
      *error = "'solution.files' must be an object of path: text";
      return false;
    }
    for (const auto& [path, value] : s["files"].items()) {
      if (!value.is_string()) {
        *error = fmt::format("'solution.files.{}' must be the file's text", path);
        return false;
      }
      request->solution.files[path] = value.get<std::string>();
    }
  }
  if (j.contains("cases")) {
    if (!j["cases"].is_array()) {
      *error = "'cases' must be a list of case ids";
      return false;
    }
    for (const json& c : j["cases"]) {
      if (c.is_string()) {
        request->cases.push_back(c.get<std::string>());
      } else if (c.is_number_integer()) {
        request->cases.push_back(std::to_string(c.get<int64_t>()));
      } else {
        *error = "'cases' must be a list of case ids";
        return false;
      }
    }
  }
  return true;
}

std::string verdictToJson(const Verdict& v, bool withCases) {
  json j = {{"task", v.task},
            {"kind", v.kind},
            {"scored", v.scored},
            {"compiled", v.compiled},
            {"correct", v.correct},
            {"cases_passed", v.casesPassed},
            {"cases_total", v.casesTotal},
            {"speedup", v.speedup},
            {"limit_score", v.limitScore},
            {"reward", v.reward},
            {"diagnostics", v.diagnostics},
            {"cached", v.cached}};
  if (withCases) {
    j["cases"] = json::array();
    for (const CaseVerdict& c : v.cases) j["cases"].push_back(caseJson(c));
  }
  return j.dump();
}

}  // namespace tilecraft::service
