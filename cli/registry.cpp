// The registry behind CommandRegistration. Registrations run during static initialisation of cmd_*.cpp
// files, in an order the linker picks; a function-local static avoids the initialisation-order problem.
#include "cli/registry.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace tilecraft::cli {
namespace {

std::vector<std::pair<std::string, RegisterFn>>& registrations() {
  static std::vector<std::pair<std::string, RegisterFn>> list;
  return list;
}

}  // namespace

CommandRegistration::CommandRegistration(const char* name, RegisterFn fn) { registrations().emplace_back(name, fn); }

void registerAllCommands(CLI::App& app) {
  auto list = registrations();
  std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [name, fn] : list) fn(app);
}

}  // namespace tilecraft::cli
