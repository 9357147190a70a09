// Mutations of Tile DSL programs for the robustness fuzzer (docs/fuzzing.md): the edits a careless user, a
// truncated LLM reply or a hostile one makes. Each is seeded (SplitMix64) and deterministic, so a seed and the
// list of kinds name one mutant on every machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/seeds.h"
#include "interp/random.h"

namespace tilecraft::fuzz {

enum class MutationKind {
  DeleteLine,     // one line removed
  DuplicateLine,  // one line copied to another place
  Truncate,       // the text cut at a byte
  SwapTokens,     // two tokens exchanged, or one replaced by another of the file
  DeepNesting,    // thousands of parentheses, unary minuses, nested blocks or a very long expression
  HugeNumber,     // a number replaced by one past int64 or double, or a huge power
  OddBytes,       // control characters, invalid UTF-8, a BOM, CR or CRLF line ends, a NUL
};

/// Every kind, in the order above.
const std::vector<MutationKind>& allMutationKinds();
/// "delete-line", "duplicate-line", "truncate", "swap-tokens", "deep-nesting", "huge-number", "odd-bytes".
const char* mutationKindName(MutationKind kind);
/// "all" or a comma-separated list of kind names; nullopt with `error` set (naming the known kinds) otherwise.
std::optional<std::vector<MutationKind>> parseMutationKinds(const std::string& list, std::string* error);
/// The names joined with commas: what parseMutationKinds reads back.
std::string mutationKindList(const std::vector<MutationKind>& kinds);

/// Applies one mutation of `kind` to `text`; `description` says what it did (e.g. "delete-line 7").
std::string applyMutation(MutationKind kind, const std::string& text, interp::SplitMix64& rng,
                          std::string* description);

struct Mutant {
  uint64_t seed = 0;
  std::string program;             // the seed program's name
  std::vector<std::string> steps;  // one description per mutation applied, in order
  std::string text;
};

/// Mutant `seed`: a program chosen from `programs`, then one to three mutations of kinds drawn from `kinds`.
/// `programs` and `kinds` must not be empty.
Mutant makeMutant(const std::vector<SeedProgram>& programs, const std::vector<MutationKind>& kinds, uint64_t seed);

}  // namespace tilecraft::fuzz
