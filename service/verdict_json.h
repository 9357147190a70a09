// The JSON both services speak: a judge request as a client writes it and a verdict as it comes back
// (docs/services.md has the fields). Text in, text out, so nlohmann/json stays in the .cpp files.
#pragma once

#include <string>

#include "service/judge.h"

namespace tilecraft::service {

// {"task": ..., "solution": {"kind": "dsl"|"ascendc", "source": TEXT | "files": {PATH: TEXT}}, "cases": [...]}
// `source` is a DSL solution's one file (kernel.tile). false with `error` naming the field when it is malformed.
bool parseJudgeRequest(const std::string& json, JudgeRequest* request, std::string* error);

// The verdict as one JSON object (no newline); `withCases`: the per-case list too.
std::string verdictToJson(const Verdict& verdict, bool withCases);

}  // namespace tilecraft::service
