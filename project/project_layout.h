// A CANN custom-operator project's files as msopgen lays them out (op_host/ with the OpDef, TilingFunc and
// InferShape; op_kernel/ with the kernel), or a MultiKernelBench submission unpacked into that layout, and what
// `project run` reads off them before building: the kernel's entry name, its core kind, the auto-sync option.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "project/snippet.h"

namespace tilecraft::project {

// The files of a project, or `error` set (exit status 2).
struct ProjectLayout {
  std::string dir;                       // as the user wrote it
  std::string absDir;                    // absolute, normal
  std::vector<std::string> hostSources;  // op_host/*.cpp, sorted by name
  std::string kernelSource;              // the one op_kernel/*.cpp
  std::vector<SourceMap> sources;        // unpacked from a submission: its files' lines in the snippet
  bool autoSync = true;                  // the project's CMakeLists.txt do not turn --cce-auto-sync off
};
bool findLayout(const std::string& dir, ProjectLayout& layout, std::string* error);

// findLayout of `path`, or, when it is a submission (FILE.py), of its project unpacked into `scratch`, the
// messages about it naming the snippet's lines.
bool openLayout(const std::string& path, const std::filesystem::path& scratch, ProjectLayout& layout,
                std::string* error);

// The kernel entry of an operator type: its snake-case form (AddCustom -> add_custom), as msopgen names it.
std::string kernelEntryName(const std::string& opType);

// The cores a kernel runs on, from its KERNEL_TASK_TYPE_DEFAULT (or whether it uses the cube): aiv, aic, mix11,
// mix (one AIC and two AIVs per block).
std::string kernelMode(const std::string& kernelText);

}  // namespace tilecraft::project
