// Subcommands register themselves, so main.cpp need not know which cmd_*.cpp files exist.
// Each cmd_*.cpp holds, at namespace scope:
//   namespace { const tilecraft::cli::CommandRegistration kRegistration("perf", &registerPerfCommands); }
#pragma once

namespace CLI {
class App;
}

namespace tilecraft::cli {

using RegisterFn = void (*)(CLI::App&);

struct CommandRegistration {
  CommandRegistration(const char* name, RegisterFn fn);
};

// Calls every registered function on `app`, sorted by name so --help output is deterministic.
void registerAllCommands(CLI::App& app);

}  // namespace tilecraft::cli
