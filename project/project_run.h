// `tilecraft project run DIR`: a CANN custom-operator project (msopgen's layout: op_host/ with the OpDef, TilingFunc
// and InferShape, op_kernel/ with the kernel) built and run on the emulator, as CANN's runtime runs it: the host
// program (op_host + emu/host_driver.h) describes the operator and runs InferShape / TilingFunc for the case, then
// the kernel program (op_kernel + the kernel-side tiling struct + emu/project_launch.h) launches the kernel with
// that tiling, tiling key, block dim and workspace. Both are built and run by the sandboxed service.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "interp/tensor.h"
#include "project/project_layout.h"
#include "runner/service.h"

namespace tilecraft::project {

struct ProjectOptions {
  std::string dir;                  // the project folder, or a MultiKernelBench submission (FILE.py, project/snippet.h)
  std::vector<std::string> inputs;  // NAME=FILE.npy, one per OpDef input
  std::vector<std::string> attrs;   // NAME=VALUE
  std::vector<std::string> expects;  // NAME=FILE.npy: compare that output (or in/out input) with it
  std::string outDir;                // write NAME.npy per output
  std::string keepDir;               // keep the generated sources and the buffers here
  double timeoutSeconds = 120;
  bool trace = false;  // the kernel run writes the emulator's instruction trace (ProjectOutcome::run.tracePath)
  // Cross-pipe synchronisation: "project" follows the project's build options (CANN compiles custom operators with
  // --cce-auto-sync unless its CMakeLists.txt says --cce-auto-sync=off), "auto" inserts it, "strict" makes every
  // unsynchronised cross-pipe access an error, as for a bare kernel.
  std::string sync = "project";
  // "error": every check of the emulator stops the run; "warn": the faults a kernel may hold and still pass on
  // the device (cross-pipe hazards, reads of unwritten local memory, GM accesses inside a tensor's 512-byte
  // allocation block, InitBuffer of 0 bytes; emu/base.h raiseFault) are warnings and the run goes on.
  std::string faults = "error";
  std::vector<std::string> includeDirs = {};  // more header folders for op_host and op_kernel (cann-ops' common)
  // NAME=VALUE from a task's case: applied to the attributes the OpDef declares, the others ignored (a task may
  // carry attributes an implementation takes as constants).
  std::vector<std::string> caseAttrs = {};
  // NAME=D0,D1,...: an output's shape as the caller allocates it, without comparing it (what an aclnn caller does
  // for the outputs it does not return); --expect gives the shape of the outputs it compares.
  std::vector<std::string> shapes = {};
};

// One tensor the kernel wrote: output `output` of the OpDef, or element `index` of it when it is a tensor list.
struct ProjectTensor {
  std::string name;
  size_t output = 0;
  int index = -1;
  interp::HostTensor tensor;
  bool complex64 = false;  // `tensor` is its float32 (real, imaginary) pairs (project/tensor_bytes.h)
};

// What a run did, for callers that judge the outputs themselves (the harness's AscendC solutions).
struct ProjectOutcome {
  // Unpack: a submission (FILE.py) that cannot be read as six source strings.
  enum class Stage { Unpack, Setup, HostBuild, HostRun, KernelBuild, KernelRun, Finished };
  Stage stage = Stage::Setup;          // the step that failed, or Finished
  std::string kernelFile;              // op_kernel's source, its file name
  std::string diagnostics;             // a build that failed: the compiler's messages, the project's paths as given
  runner::RunResult run;               // the host or kernel run that failed, else the kernel's (with its trace)
  double seconds = 0;                  // building and running, both programs
  std::vector<ProjectTensor> outputs;  // every output tensor, in OpDef order (when Finished)
};

// 0 every compared output matches, 1 a mismatch or a build/run failure, 2 a usage error, 3 a failed check (host or
// kernel code, with its FILE:LINE).
int runProject(const ProjectOptions& options, runner::BuildRunService& service, std::ostream& out, std::ostream& err,
               ProjectOutcome* outcome = nullptr);

}  // namespace tilecraft::project
