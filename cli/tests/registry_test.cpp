// Registrations from several translation units end up in one app, in name order whatever the link order.
#include "cli/registry.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

namespace tilecraft::cli {
namespace {

void registerZeta(CLI::App& app) { app.add_subcommand("zeta", "last by name"); }
void registerAlpha(CLI::App& app) { app.add_subcommand("alpha", "first by name"); }

// Declared out of name order on purpose.
const CommandRegistration kZeta("zeta", &registerZeta);
const CommandRegistration kAlpha("alpha", &registerAlpha);

TEST(CommandRegistry, RegistersEverySubcommandSortedByName) {
  CLI::App app("test", "tilecraft");
  registerAllCommands(app);
  auto subcommands = app.get_subcommands([](CLI::App*) { return true; });
  ASSERT_EQ(subcommands.size(), 2u);
  EXPECT_EQ(subcommands[0]->get_name(), "alpha");
  EXPECT_EQ(subcommands[1]->get_name(), "zeta");
}

}  // namespace
}  // namespace tilecraft::cli
