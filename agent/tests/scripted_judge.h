// A judge for the agent's tests: verdicts chosen by the program's text, every request kept.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "service/judge.h"

namespace tilecraft::agent::testing {

// The first rule whose needle one of the solution's files holds decides; no rule is the judge's error.
class ScriptedJudge final : public service::Judge {
 public:
  std::vector<std::pair<std::string, service::Verdict>> rules;
  std::vector<service::JudgeRequest> requests;
  service::JudgeOutcome judge(const service::JudgeRequest& request) override {
    requests.push_back(request);
    for (const auto& [needle, verdict] : rules) {
      for (const auto& [name, text] : request.solution.files) {
        if (text.find(needle) != std::string::npos) return {"", verdict};
      }
    }
    return {"no rule for this program", {}};
  }
};

}  // namespace tilecraft::agent::testing
