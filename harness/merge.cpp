#include "harness/merge.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

namespace tilecraft::harness {
namespace {

// What two copies of a row must agree on: everything but what evaluating it cost.
std::string content(Record r) {
  r.wallSeconds = 0;
  return recordToJson(r);
}

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::optional<MergedRows> mergeShardResults(const std::vector<ShardResults>& shards, std::string* error) {
  struct Seen {
    Record row;
    std::string where;
  };
  std::map<std::string, Seen> byKey;
  MergedRows merged;
  for (const ShardResults& shard : shards) {
    std::istringstream in(shard.text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      std::string why;
      std::optional<Record> row = parseRecord(line, &why);
      std::string where = fmt::format("{}:{}", shard.name, number);
      if (!row) {
        merged.warnings.push_back(fmt::format("{}: skipped a malformed record: {}", where, why));
        continue;
      }
      std::string key = recordKey(*row);
      auto [it, inserted] = byKey.try_emplace(key, Seen{*row, where});
      if (!inserted && content(it->second.row) != content(*row)) {
        *error = fmt::format("duplicate record '{}' with different content: {} and {}", key, it->second.where,
                             where);
        return std::nullopt;
      }
    }
  }
  merged.rows.reserve(byKey.size());
  for (auto& [key, seen] : byKey) merged.rows.push_back(std::move(seen.row));
  return merged;
}

std::optional<MergedRows> mergeShards(const std::vector<std::string>& shards, std::string* error) {
  std::vector<ShardResults> results;
  for (const std::string& shard : shards) {
    std::string path = endsWith(shard, ".jsonl") ? shard : shard + "/results.jsonl";
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      *error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
      return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    results.push_back({path, text.str()});
  }
  return mergeShardResults(results, error);
}

}  // namespace tilecraft::harness
