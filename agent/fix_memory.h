// The fix memory (Hawk's knowledge base of error contexts and the fixes that worked): from past transcripts, each
// failure an attempt met (a compile diagnostic, a build error, a wrong case) paired with the edit of the next
// attempt that got past it, deduplicated and counted; a repair prompt then carries the closest few fixes for the
// failure at hand. Stored as JSON lines (`tilecraft memory mine|list|prune`, docs/generation.md "Fix memory").
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "agent/loop.h"

namespace tilecraft::agent {

struct Fix {
  std::string id;         // of (mode, signature, edit): the same fix mined twice is one entry
  std::string mode;       // "dsl" or "ascendc"
  std::string kind;       // "compile", or the harness's failure name (unknown_api, numeric_mismatch, ...)
  std::string signature;  // the failure without its place or numbers
  std::string edit;       // what changed: per file, the lines removed (-) and added (+)
  std::string task;       // where it was first seen
  int seen = 1;           // how many times it was mined
};

// What an attempt met, as the memory sees it: the stage-specific message that names the failure.
struct AttemptFailure {
  std::string kind;  // empty when the attempt met no failure (correct, or nothing to judge)
  std::string text;
};
AttemptFailure failureOf(const Attempt& a);

// The first error line of `text` without its FILE:LINE:COL, digit runs as N, blanks collapsed.
std::string failureSignature(const std::string& text);

// Per file that differs, `--- NAME` then the lines that differ between the common head and tail, `-` before and
// `+` after (at most `maxLines` of them per file); files only one side has are listed whole.
std::string editBetween(const std::map<std::string, std::string>& before,
                        const std::map<std::string, std::string>& after, size_t maxLines = 24);

// The fixes in a transcript file: for each sample, an attempt whose failure the next attempt of the sample did
// not meet. A line that is not an attempt or sample is a problem ("FILE:LINE: ..."), skipped.
std::vector<Fix> mineFixes(const std::filesystem::path& transcripts, std::vector<std::string>* problems);

class FixMemory {
 public:
  // A missing file is an empty memory; a bad line is a problem ("FILE:LINE: ..."), skipped.
  static FixMemory load(const std::filesystem::path& file, std::vector<std::string>* problems);
  bool save(const std::filesystem::path& file, std::string* error) const;  // atomically, by id

  // Adds each fix, or counts it again when its id is known. Returns how many were new.
  int add(const std::vector<Fix>& fixes);
  // Drops fixes seen fewer than `minSeen` times, then keeps the `keep` most seen (ties by id; 0: all), and drops
  // the ids in `drop`. Returns how many were removed.
  int prune(int minSeen, size_t keep, const std::vector<std::string>& drop);

  // The fixes of `mode` whose signature shares at least half its words with `signature` (Jaccard), closest
  // first, then the most seen, then by id; at most `count`.
  std::vector<Fix> closest(const std::string& signature, const std::string& mode, size_t count) const;

  const std::vector<Fix>& fixes() const { return fixes_; }

 private:
  std::vector<Fix> fixes_;  // in id order
};

// The text a repair request gets for `fixes`; empty for none.
std::string memoryHint(const std::vector<Fix>& fixes);

}  // namespace tilecraft::agent
