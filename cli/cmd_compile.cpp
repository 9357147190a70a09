// `tilecraft compile FILE.tile --emit=...`: the Tile DSL compiler.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/registry.h"
#include "codegen/driver.h"
#include "codegen/emit_project.h"
#include "dsl/driver.h"
#include "passes/driver.h"

namespace tilecraft::cli {
namespace {

void registerCompileCommand(CLI::App& app) {
  CLI::App* compile =
      app.add_subcommand("compile", "Compile a Tile DSL program (tokens, checked AST, kernel IR, AscendC)");
  auto options = std::make_shared<dsl::CompileOptions>();
  compile->add_option("FILE.tile", options->file, "The DSL program")->required();
  compile
      ->add_option("--emit", options->emit,
                   "What to print: tokens | ast (typed AST with buffer budgets) | ir | ir-after=PASS | ascendc "
                   "(the kernel source) | project (a CANN custom-operator project, written to -o DIR)")
      ->capture_default_str();
  auto project = std::make_shared<codegen::ProjectOptions>();
  compile->add_option("-o,--output", project->outDir, "With --emit=project: the folder to write the project into");
  compile->add_flag("--force", project->force, "With --emit=project: write into a folder that is not empty");
  compile->add_option("--param", options->params,
                      "NAME=VALUE: bind a dtype or const parameter (repeat); unbound ones: every instantiation is "
                      "checked (--emit=ast)");
  compile->add_option("--diagnostics", options->diagnostics, "Diagnostics format on stderr: text | json")
      ->capture_default_str();
  auto irFlags = std::make_shared<std::pair<bool, bool>>(false, false);
  compile->add_flag("--print-after-all", irFlags->first, "With --emit=ir: print the IR after lowering and every pass");
  compile->add_flag("--time-passes", irFlags->second, "With --emit=ir: print each pass's time on stderr");
  compile->callback([options, irFlags, project] {
    // The IR stages belong to the passes library; everything else is the front end's.
    if (int usage = codegen::checkProjectFlags(options->emit, *project, std::cerr)) throw CLI::RuntimeError(usage);
    int status = 0;
    if (passes::isIrEmit(options->emit) || irFlags->first || irFlags->second) {
      passes::IrCompileOptions ir{options->file,  options->emit,   options->diagnostics,
                                  irFlags->first, irFlags->second, codegen::checkWholePipeline,
                                  options->params};
      status = passes::runCompileIr(ir, std::cout, std::cerr);
    } else if (options->emit == "project") {
      project->file = options->file;
      project->diagnostics = options->diagnostics;
      project->params = options->params;
      status = codegen::runCompileProject(*project, std::cout, std::cerr);
    } else if (options->emit == "ascendc") {
      status =
          codegen::runCompileAscendC({options->file, options->diagnostics, {}, options->params}, std::cout, std::cerr);
    } else {
      options->wholePipeline = codegen::checkWholePipeline;
      status = dsl::runCompile(*options, std::cout, std::cerr);
    }
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("compile", &registerCompileCommand);

}  // namespace
}  // namespace tilecraft::cli
