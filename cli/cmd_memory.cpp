// `tilecraft memory mine|list|prune`: the fix memory (agent/fix_memory.h) the agent's repair requests draw on
// (`tilecraft agent --memory FILE`), made from transcripts, listed and pruned.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "agent/fix_memory.h"
#include "cli/registry.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

struct MemoryCommand {
  std::string file;
  std::vector<std::string> transcripts;
  int minSeen = 1;
  size_t keep = 0;
  std::vector<std::string> drop;
};

// The memory in `file`, its bad lines as warnings; nullopt after the error when it must exist and does not.
std::optional<agent::FixMemory> loadMemory(const std::string& file, bool mustExist) {
  if (mustExist && !fs::is_regular_file(file)) {
    std::cerr << fmt::format(
        "error: --memory {}: no such file\nhint: tilecraft memory mine TRANSCRIPTS... --memory {} "
        "makes one\n",
        file, file);
    return std::nullopt;
  }
  std::vector<std::string> problems;
  agent::FixMemory memory = agent::FixMemory::load(file, &problems);
  for (const std::string& p : problems) std::cerr << "warning: " << p << '\n';
  return memory;
}

bool saveMemory(const agent::FixMemory& memory, const std::string& file) {
  std::string error;
  if (memory.save(file, &error)) return true;
  std::cerr << "error: " << error << '\n';
  return false;
}

// Mines every transcript file; one that cannot be read is an error (exit 1) after the others are kept.
int mine(const MemoryCommand& cmd) {
  std::optional<agent::FixMemory> memory = loadMemory(cmd.file, false);
  int status = 0, added = 0;
  size_t found = 0;
  for (const std::string& t : cmd.transcripts) {
    std::vector<std::string> problems;
    std::vector<agent::Fix> fixes = agent::mineFixes(t, &problems);
    for (const std::string& p : problems) {
      bool unreadable = p.find(": cannot read") != std::string::npos;
      std::cerr << (unreadable ? "error: " : "warning: ") << p << '\n';
      if (unreadable) status = 1;
    }
    found += fixes.size();
    added += memory->add(fixes);
  }
  if (!saveMemory(*memory, cmd.file)) return 1;
  std::cout << fmt::format("{}: {} fixes mined from {} transcript file(s), {} new; {} in the memory\n", cmd.file, found,
                           cmd.transcripts.size(), added, memory->fixes().size());
  return status;
}

int list(const MemoryCommand& cmd) {
  std::optional<agent::FixMemory> memory = loadMemory(cmd.file, true);
  if (!memory) return 2;
  std::cout << fmt::format("{:<16}  {:>4}  {:<7}  {:<16}  {}\n", "id", "seen", "mode", "kind", "signature");
  for (const agent::Fix& f : memory->fixes()) {
    std::string signature = f.signature.size() > 100 ? f.signature.substr(0, 97) + "..." : f.signature;
    std::cout << fmt::format("{:<16}  {:>4}  {:<7}  {:<16}  {}\n", f.id, f.seen, f.mode, f.kind, signature);
  }
  std::cout << fmt::format("{} fixes\n", memory->fixes().size());
  return 0;
}

int prune(const MemoryCommand& cmd) {
  std::optional<agent::FixMemory> memory = loadMemory(cmd.file, true);
  if (!memory) return 2;
  for (const std::string& id : cmd.drop) {
    bool known =
        std::any_of(memory->fixes().begin(), memory->fixes().end(), [&](const agent::Fix& f) { return f.id == id; });
    if (!known) {
      std::cerr << fmt::format("error: --drop {}: no fix with this id in {} (tilecraft memory list shows them)\n", id,
                               cmd.file);
      return 2;
    }
  }
  int removed = memory->prune(cmd.minSeen, cmd.keep, cmd.drop);
  if (!saveMemory(*memory, cmd.file)) return 1;
  std::cout << fmt::format("{}: {} removed, {} left\n", cmd.file, removed, memory->fixes().size());
  return 0;
}

void registerMemoryCommands(CLI::App& app) {
  CLI::App* memory =
      app.add_subcommand("memory", "The fix memory: failures met in past transcripts and the edits that got past them");
  memory->require_subcommand(1);
  auto cmd = std::make_shared<MemoryCommand>();
  auto withFile = [&](CLI::App* sub) {
    sub->add_option("--memory", cmd->file, "the memory file (JSON lines)")->required();
  };
  CLI::App* mineCmd = memory->add_subcommand("mine", "Add the fixes of agent transcripts to the memory");
  mineCmd->add_option("TRANSCRIPTS", cmd->transcripts, "transcripts.jsonl files of tilecraft agent")->required();
  withFile(mineCmd);
  mineCmd->callback([cmd] {
    if (int status = mine(*cmd); status != 0) throw CLI::RuntimeError(status);
  });
  CLI::App* listCmd = memory->add_subcommand("list", "List the fixes: id, times seen, mode, kind, signature");
  withFile(listCmd);
  listCmd->callback([cmd] {
    if (int status = list(*cmd); status != 0) throw CLI::RuntimeError(status);
  });
  CLI::App* pruneCmd = memory->add_subcommand("prune", "Drop rarely seen fixes, keep the most seen, drop by id");
  withFile(pruneCmd);
  pruneCmd->add_option("--min-seen", cmd->minSeen, "drop fixes seen fewer times")->check(CLI::Range(1, 1 << 30));
  pruneCmd->add_option("--keep", cmd->keep, "keep at most this many, the most seen (0: all)");
  pruneCmd->add_option("--drop", cmd->drop, "drop the fix with this id (repeatable)");
  pruneCmd->callback([cmd] {
    if (int status = prune(*cmd); status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("memory", &registerMemoryCommands);

}  // namespace
}  // namespace tilecraft::cli
