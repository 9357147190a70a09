// `tilecraft project run DIR`: a CANN custom-operator project (msopgen's layout: op_host/ with the OpDef, TilingFunc
// and InferShape, op_kernel/ with the kernel) built and run on the emulator, as CANN's runtime runs it: the host
// program (op_host + emu/host_driver.h) describes the operator and runs InferShape / TilingFunc for the case, then
// the kernel program (op_kernel + the kernel-side tiling struct + emu/project_launch.h) launches the kernel with
// that tiling, tiling key, block dim and workspace. Both are built and run by the sandboxed service.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "runner/service.h"

namespace tilecraft::project {

struct ProjectOptions {
  std::string dir;
  std::vector<std::string> inputs;   // NAME=FILE.npy, one per OpDef input
  std::vector<std::string> attrs;    // NAME=VALUE
  std::vector<std::string> expects;  // NAME=FILE.npy: compare that output (or in/out input) with it
  std::string outDir;                // write NAME.npy per output
  std::string keepDir;               // keep the generated sources and the buffers here
  double timeoutSeconds = 120;
};

// The files of a project, or `error` set (exit status 2).
struct ProjectLayout {
  std::string dir;                       // as the user wrote it
  std::string absDir;                    // absolute, normal
  std::vector<std::string> hostSources;  // op_host/*.cpp, sorted by name
  std::string kernelSource;              // the one op_kernel/*.cpp
};
bool findLayout(const std::string& dir, ProjectLayout& layout, std::string* error);

// The kernel entry of an operator type: its snake-case form (AddCustom -> add_custom), as msopgen names it.
std::string kernelEntryName(const std::string& opType);

// The cores a kernel runs on, from its KERNEL_TASK_TYPE_DEFAULT (or whether it uses the cube): aiv, aic, mix11,
// mix (one AIC and two AIVs per block).
std::string kernelMode(const std::string& kernelText);

// 0 every compared output matches, 1 a mismatch or a build/run failure, 2 a usage error, 3 a failed check (host or
// kernel code, with its FILE:LINE).
int runProject(const ProjectOptions& options, runner::BuildRunService& service, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::project
