// One case of a task, from the fields of a cases.yaml entry or a cases.csv row (both turned into one JSON
// object first, so both files follow one set of rules), and CANN Bench's dtype names. Internal to
// harness/task.cpp; declared here so the rules are testable on their own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/task.h"

namespace tilecraft::harness {

struct RawCase {
  int line = 0;
  std::string fields;  // JSON object text: operator, case_id, input_shape, dtype, attrs, value_range, note
};

// "float16" for float16/fp16/half/Float16, "bfloat16" for bf16, "float32" for fp32/float, ... (lowercase).
std::string canonicalDtypeName(std::string_view name);
// The dsl::DType of a canonical name, when Tilecraft has one.
std::optional<dsl::DType> dtypeFromCannName(std::string_view name);
// The canonical name of a Tilecraft dtype (torch spells them the same: float16, bfloat16, int64, bool, ...).
const char* cannDtypeName(dsl::DType dtype);
// A dtype CANN Bench uses that Tilecraft does not represent (float8_e4m3fn, hifloat8, int4, uint32, ...).
bool isKnownCannDtype(std::string_view name);

// nullopt with `error` set when the row is malformed; the Case otherwise (possibly with `unsupported` set),
// with the usable row's inconsistencies appended to `warnings`.
std::optional<Case> parseCase(const Task& task, const RawCase& raw, const std::string& file, std::string& error,
                              std::vector<std::string>& warnings);

}  // namespace tilecraft::harness
