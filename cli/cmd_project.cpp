// `tilecraft project run DIR`: a CANN custom-operator project (op_host + op_kernel) built and run on the emulator
// (project/project_run.h, docs/projects.md).
#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/flags.h"
#include "cli/registry.h"
#include "project/project_run.h"
#include "runner/service.h"

namespace tilecraft::cli {
namespace {

struct ProjectCommand {
  project::ProjectOptions options;
  bool sandbox = true;
};

int runProjectCommand(const ProjectCommand& cmd) {
  runner::ServiceOptions serviceOptions;
  serviceOptions.emuInclude = emulatorIncludeDir();
  serviceOptions.sandbox = cmd.sandbox;
  std::unique_ptr<runner::BuildRunService> service = runner::startBuildRunService(serviceOptions, std::cerr);
  if (!service) return 2;
  return project::runProject(cmd.options, *service, std::cout, std::cerr);
}

void registerProjectCommands(CLI::App& app) {
  CLI::App* projectCmd = app.add_subcommand("project", "CANN custom-operator projects (op_host + op_kernel)");
  projectCmd->require_subcommand(1);
  CLI::App* run = projectCmd->add_subcommand(
      "run", "Build a project's host and kernel against the emulator, run InferShape, TilingFunc and the kernel");
  auto cmd = std::make_shared<ProjectCommand>();
  run->add_option("DIR", cmd->options.dir, "The project folder (holding op_host/ and op_kernel/)")->required();
  run->add_option("--in", cmd->options.inputs, "NAME=FILE.npy for each input of the OpDef (repeat)");
  run->add_option("--attr", cmd->options.attrs, "NAME=VALUE for an attribute (default: the OpDef's; lists: 1,2,3)");
  run->add_option("--expect", cmd->options.expects,
                  "NAME=FILE.npy: compare that output with it (its shape also stands in for a missing InferShape)");
  run->add_option("--out", cmd->options.outDir, "Write each output as NAME.npy here");
  run->add_option("--keep", cmd->options.keepDir, "Keep the generated drivers, tiling header and buffers here");
  run->add_option("--timeout", cmd->options.timeoutSeconds, "Seconds each program may run")->capture_default_str();
  run->add_flag("!--no-sandbox", cmd->sandbox, "Build and run without bubblewrap (no isolation: trusted code only)");
  run->callback([cmd] {
    int status = runProjectCommand(*cmd);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("project", &registerProjectCommands);

}  // namespace
}  // namespace tilecraft::cli
