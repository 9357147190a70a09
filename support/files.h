// Whole files in and out, for every library that reads or writes one (perf reads its own: it depends on nothing).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::support {

// The file's bytes; nullopt when it cannot be opened.
std::optional<std::string> readFile(const std::filesystem::path& path);

// The bytes of a file a user named as an input (--in, a source file, a CSV): refuses what is not a regular file (a
// folder, a device, a pipe) and a file over `maxBytes`, and never reads more than that, so /dev/zero or a huge
// file cannot exhaust memory. nullopt with `error` set ("'x.npy' is a folder, not a file").
std::optional<std::string> readInputFile(const std::filesystem::path& path, uint64_t maxBytes, std::string* error);

// A folder the command will write into (--out-dir, --keep): created when missing; an error when the path is a file
// or cannot be created, so a command checks it before doing any work rather than losing its results at the end.
bool prepareOutputFolder(const std::filesystem::path& path, std::string* error);

// Writes through PATH.tmp and a rename, so a reader (or a run killed half-way) sees the old file or the new one,
// never half of one. false with `error` set ("cannot write PATH.tmp: <reason>").
bool writeFileAtomically(const std::filesystem::path& path, std::string_view bytes, std::string* error);

// Every regular file under `dir` (recursively) whose name ends in `extension` (e.g. ".tile"), sorted, so that
// whatever walks them (the robustness tests, the mutation fuzzer) sees the same order on every machine. Empty
// when `dir` does not exist.
std::vector<std::filesystem::path> listFilesRecursively(const std::filesystem::path& dir, std::string_view extension);

}  // namespace tilecraft::support
