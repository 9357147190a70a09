// What a model's reply holds: the Tile DSL files in its fenced code blocks, or in AscendC mode the MultiKernelBench
// submission. Models wrap code in prose, label the
// fence `tile`, `python` or nothing, and sometimes send several kernels (one per dtype); a solution folder holds
// one `.tile` file per kernel, named after it.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace tilecraft::agent {

struct ExtractedProgram {
  std::map<std::string, std::string> files;  // "NAME.tile" -> text, NAME the file's first kernel
  std::string problem;                       // why nothing usable was found; empty when files is not
};

/// Every fenced block (``` or ~~~, any info string) whose text holds `@kernel` becomes a file named after the
/// first `def NAME(` under that decorator; a name used twice gets `_2`, `_3`. A reply cut inside a fence (a model
/// stopped by max_tokens) keeps nothing of that block: half a kernel would only earn a confusing diagnostic.
ExtractedProgram extractProgram(std::string_view reply);

/// AscendC mode: the closed fenced blocks that assign any of MultiKernelBench's six strings (project_json_src, ...,
/// model_src), joined in order into one `submission.py`, so that a model may send the six in one block or several.
ExtractedProgram extractSubmission(std::string_view reply);

}  // namespace tilecraft::agent
