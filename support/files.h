// Whole files in and out, for every library that reads or writes one (perf reads its own: it depends on nothing).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::support {

// The file's bytes; nullopt when it cannot be opened.
std::optional<std::string> readFile(const std::filesystem::path& path);

// Writes through PATH.tmp and a rename, so a reader (or a run killed half-way) sees the old file or the new one,
// never half of one. false with `error` set ("cannot write PATH.tmp: <reason>").
bool writeFileAtomically(const std::filesystem::path& path, std::string_view bytes, std::string* error);

// Every regular file under `dir` (recursively) whose name ends in `extension` (e.g. ".tile"), sorted, so that
// whatever walks them (the robustness tests, the mutation fuzzer) sees the same order on every machine. Empty
// when `dir` does not exist.
std::vector<std::filesystem::path> listFilesRecursively(const std::filesystem::path& dir, std::string_view extension);

}  // namespace tilecraft::support
