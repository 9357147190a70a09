// The text of an imported task folder: proto.yaml, cases.csv, golden.py, desc.md and model.py, made from what the
// import probe reported (makeTaskFiles in import_task.h). The naming rules live here too.
#pragma once

#include <string>

namespace tilecraft::harness {

// A task folder name from an upstream file name: lower case, runs of other characters as one `_`
// ("12_Matmul_with_diagonal_matrices_" -> "12_matmul_with_diagonal_matrices").
std::string taskNameOf(const std::string& stem);

// NPUKernelBench's CamelCase operator folders in snake case ("AddRmsNorm" -> "add_rms_norm", "GeGluV2" ->
// "ge_glu_v2").
std::string snakeCase(const std::string& camel);

// A Python identifier for the golden function and the inputs: `name` unless it starts with a digit or is a
// keyword, then `prefix` + name.
std::string pythonName(const std::string& name, const std::string& prefix);

}  // namespace tilecraft::harness
