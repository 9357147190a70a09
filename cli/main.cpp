// The `tilecraft` command. Subcommands live in cli/cmd_*.cpp and register themselves (cli/registry.h).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <exception>
#include <iostream>
#include <string>

#include "cli/registry.h"

#ifndef TILECRAFT_VERSION
#define TILECRAFT_VERSION "0.0.0"
#endif

namespace {

// Exit status of a bug in Tilecraft itself (an exception no command caught): never a user's mistake.
constexpr int kInternalErrorStatus = 3;

// CLI11 runs --help before it notices an unknown subcommand, so `tilecraft nosuch --help` would print the
// top-level help and exit 0. The words before the first option are walked down the command tree: one that names
// no subcommand of a command that needs one is an unknown command.
std::string unknownCommand(CLI::App& app, int argc, char** argv) {
  CLI::App* command = &app;
  std::string path = "tilecraft";
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.empty() || word[0] == '-') break;
    CLI::App* sub = nullptr;
    try {
      sub = command->get_subcommand(word);
    } catch (const CLI::OptionNotFound&) {
      sub = nullptr;
    }
    if (sub == nullptr) {
      if (command->get_require_subcommand_min() == 0) break;  // a positional argument, e.g. FILE.tile
      return fmt::format("error: unknown command '{}'{}; run '{} --help' for the commands", word,
                         command == &app ? "" : " for '" + path + "'", path);
    }
    command = sub;
    path += " " + word;
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  try {
    CLI::App app{"Tilecraft: generate, verify and tune kernels for Ascend NPUs", "tilecraft"};
    app.set_version_flag("--version", "tilecraft " TILECRAFT_VERSION);
    app.require_subcommand(1);
    tilecraft::cli::registerAllCommands(app);
    if (std::string unknown = unknownCommand(app, argc, argv); !unknown.empty()) {
      std::cerr << unknown << '\n';
      return 2;
    }
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      int code = app.exit(e);
      // A subcommand's own failure (RuntimeError) keeps its code; every usage error is 2, as documented.
      if (e.get_name() == "RuntimeError" || code == 0) return code;
      return 2;
    }
    return 0;
  } catch (const std::exception& e) {
    // Every user mistake has its own message and status 1 or 2; reaching here is a bug to report.
    std::cerr << "internal error: " << e.what() << " (a bug in tilecraft: please report it with the command line)\n";
    return kInternalErrorStatus;
  } catch (...) {
    std::cerr << "internal error: unknown exception (a bug in tilecraft: please report it with the command line)\n";
    return kInternalErrorStatus;
  }
}
