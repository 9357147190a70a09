// `--shard i/N`: a deterministic share of a run's (task, case, sample) work, so N machines (a Slurm array
// job) each evaluate one share and `bench merge` puts the rows back together.
//
// The rule: the work items' keys ("task/case/sample", recordKey) are sorted bytewise and cut into N
// contiguous blocks whose sizes differ by at most one; shard i (0-based) takes block i. Every item is in
// exactly one shard, whatever order the caller lists them in. Contiguous blocks keep a task's cases together
// (a key's task is its prefix), so each solution is built in one shard, or two where a block boundary falls
// inside the task.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::harness {

struct Shard {
  int index = 0;  // 0 <= index < count
  int count = 1;
};

// Parses "i/N". On a bad value returns nullopt with `error` set to one of:
//   "--shard: expected i/N with 0 <= i < N (e.g. 0/4), got 'TEXT'"
//   "--shard: N must be at least 1, got 'TEXT'"
//   "--shard: i must be below N (0 to N-1), got 'TEXT'"
std::optional<Shard> parseShard(std::string_view text, std::string* error);

// The positions in `keys` of the items shard `shard` takes, in ascending key order. Equal keys are ordered by
// position, so even a list with duplicates is partitioned exactly.
std::vector<size_t> shardItems(const std::vector<std::string>& keys, Shard shard);

}  // namespace tilecraft::harness
