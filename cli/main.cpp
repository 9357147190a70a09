// The `tilecraft` command. Subcommands live in cli/cmd_*.cpp and register themselves (cli/registry.h).
#include <CLI/CLI.hpp>

#include "cli/registry.h"

#ifndef TILECRAFT_VERSION
#define TILECRAFT_VERSION "0.0.0"
#endif

int main(int argc, char** argv) {
  CLI::App app{"Tilecraft: generate, verify and tune kernels for Ascend NPUs", "tilecraft"};
  app.set_version_flag("--version", "tilecraft " TILECRAFT_VERSION);
  app.require_subcommand(1);
  tilecraft::cli::registerAllCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    // A subcommand's own failure (RuntimeError) keeps its code; every usage error is 2, as documented.
    if (e.get_name() == "RuntimeError" || code == 0) return code;
    return 2;
  }
  return 0;
}
