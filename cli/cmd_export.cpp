// `tilecraft export sft|preferences TRANSCRIPTS.jsonl -o OUT.jsonl`: training data from `tilecraft agent`'s
// transcripts (agent/export.h; formats in docs/generation.md). A bad line is reported with its number and skipped.
// Exit 0 when OUT was written (skipped lines included), 1 when the transcripts cannot be read or OUT written.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "agent/export.h"
#include "cli/registry.h"
#include "support/files.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

struct ExportOptions {
  std::string transcripts, out;
  agent::PreferenceFormat format = agent::PreferenceFormat::Trl;
};

// The attempts of the transcripts, after a warning for each skipped line; nullopt after an error.
std::optional<agent::TranscriptRead> readAttempts(const std::string& path) {
  if (!fs::is_regular_file(path)) {
    std::cerr << fmt::format("error: {}: no such file (transcripts.jsonl from tilecraft agent --out)\n", path);
    return std::nullopt;
  }
  std::ifstream in(path);
  agent::TranscriptRead read = agent::readTranscripts(in, path);
  if (in.bad()) {
    std::cerr << fmt::format("error: {}: read failed\n", path);
    return std::nullopt;
  }
  for (const std::string& problem : read.problems) std::cerr << "warning: " << problem << " (line skipped)\n";
  return read;
}

bool writeLines(const std::string& path, const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + '\n';
  std::string error;
  if (!support::writeFileAtomically(path, text, &error)) {
    std::cerr << "error: " << error << '\n';
    return false;
  }
  return true;
}

std::string skipped(const agent::TranscriptRead& read) {
  return read.problems.empty() ? "" : fmt::format(", {} bad lines skipped", read.problems.size());
}

int exportSft(const ExportOptions& o) {
  std::optional<agent::TranscriptRead> read = readAttempts(o.transcripts);
  if (!read) return 1;
  std::vector<std::string> lines = agent::sftLines(read->attempts);
  if (!writeLines(o.out, lines)) return 1;
  std::cout << fmt::format("sft: {} samples from {} attempts{} -> {}\n", lines.size(), read->attempts.size(),
                           skipped(*read), o.out);
  return 0;
}

int exportPreferences(const ExportOptions& o) {
  std::optional<agent::TranscriptRead> read = readAttempts(o.transcripts);
  if (!read) return 1;
  agent::PreferenceCounts counts;
  std::vector<std::string> lines = agent::preferenceLines(read->attempts, o.format, &counts);
  if (!writeLines(o.out, lines)) return 1;
  std::cout << fmt::format("preferences: {} pairs over {} prompts from {} attempts{} -> {}\n", counts.pairs,
                           counts.prompts, read->attempts.size(), skipped(*read), o.out);
  return 0;
}

void addInOut(CLI::App* command, ExportOptions& o) {
  command->add_option("TRANSCRIPTS", o.transcripts, "transcripts.jsonl written by tilecraft agent")->required();
  command->add_option("-o,--out", o.out, "the JSONL file to write")->required();
}

void registerExportCommands(CLI::App& app) {
  CLI::App* group = app.add_subcommand("export", "Training data from agent transcripts (docs/generation.md)");
  group->require_subcommand(1);
  auto options = std::make_shared<ExportOptions>();

  CLI::App* sft = group->add_subcommand("sft", "The verified attempts as chat-format SFT samples (OpenAI chat JSONL)");
  addInOut(sft, *options);
  sft->callback([options] {
    if (int status = exportSft(*options); status != 0) throw CLI::RuntimeError(status);
  });

  CLI::App* prefs = group->add_subcommand(
      "preferences", "Pairs of replies to one prompt: correct > wrong > does not compile, faster > slower");
  addInOut(prefs, *options);
  const std::map<std::string, agent::PreferenceFormat> formats = {{"trl", agent::PreferenceFormat::Trl},
                                                                  {"openai", agent::PreferenceFormat::OpenAi}};
  prefs->add_option("--format", options->format, "trl: prompt/chosen/rejected; openai: preference fine-tuning")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case))
      ->default_str("trl");
  prefs->callback([options] {
    if (int status = exportPreferences(*options); status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("export", &registerExportCommands);

}  // namespace
}  // namespace tilecraft::cli
