#include "harness/shard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace tilecraft::harness {
namespace {

std::string parseError(const std::string& text) {
  std::string error;
  EXPECT_FALSE(parseShard(text, &error).has_value()) << text;
  return error;
}

TEST(Shard, ParsesIndexAndCount) {
  std::string error;
  std::optional<Shard> s = parseShard("2/5", &error);
  ASSERT_TRUE(s.has_value()) << error;
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 5);
  s = parseShard("0/1", &error);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->count, 1);
}

TEST(Shard, BadValuesHaveExactMessages) {
  for (const char* text :
       {"", "3", "a/4", "1/", "/4", "-1/4", "1/-4", "+1/4", "1 /4", "1/4/2", "1/4x", "99999999999/4"}) {
    EXPECT_EQ(parseError(text), std::string("--shard: expected i/N with 0 <= i < N (e.g. 0/4), got '") + text + "'");
  }
  EXPECT_EQ(parseError("0/0"), "--shard: N must be at least 1, got '0/0'");
  EXPECT_EQ(parseError("4/4"), "--shard: i must be below N (0 to 3), got '4/4'");
  EXPECT_EQ(parseError("7/1"), "--shard: i must be below N (0 to 0), got '7/1'");
}

std::vector<std::string> keys(int tasks, int cases, int samples) {
  std::vector<std::string> out;
  for (int t = 0; t < tasks; ++t) {
    for (int c = 0; c < cases; ++c) {
      for (int s = 0; s < samples; ++s)
        out.push_back("task" + std::to_string(t) + "/" + std::to_string(c) + "/" + std::to_string(s));
    }
  }
  return out;
}

TEST(Shard, SharesPartitionTheItemsExactlyAndEvenly) {
  for (int m : {0, 1, 2, 7, 30, 101}) {
    std::vector<std::string> items = keys(1, m, 1);
    for (int n : {1, 2, 3, 4, 7, 16, 200}) {
      std::vector<int> owner(items.size(), -1);
      size_t smallest = items.size(), largest = 0;
      for (int i = 0; i < n; ++i) {
        std::vector<size_t> share = shardItems(items, Shard{i, n});
        smallest = std::min(smallest, share.size());
        largest = std::max(largest, share.size());
        for (size_t at : share) {
          ASSERT_LT(at, items.size());
          EXPECT_EQ(owner[at], -1) << "item " << at << " in two shards, m=" << m << " n=" << n;
          owner[at] = i;
        }
      }
      EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0) << "m=" << m << " n=" << n;
      EXPECT_LE(largest - std::min(smallest, largest), 1u) << "m=" << m << " n=" << n;
    }
  }
}

TEST(Shard, ShareDependsOnTheKeysNotTheirOrder) {
  std::vector<std::string> sorted = keys(5, 3, 2), shuffled = sorted;
  std::reverse(shuffled.begin(), shuffled.end());
  std::swap(shuffled[1], shuffled[7]);
  for (int i = 0; i < 4; ++i) {
    std::vector<std::string> a, b;
    for (size_t at : shardItems(sorted, Shard{i, 4})) a.push_back(sorted[at]);
    for (size_t at : shardItems(shuffled, Shard{i, 4})) b.push_back(shuffled[at]);
    EXPECT_EQ(a, b) << "shard " << i;
    EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  }
}

TEST(Shard, ContiguousBlocksKeepATasksCasesTogether) {
  // 6 tasks of 4 cases on 3 shards: 8 items each, so every task lies in exactly one shard.
  std::vector<std::string> items = keys(6, 4, 1);
  for (int i = 0; i < 3; ++i) {
    std::set<std::string> tasks;
    for (size_t at : shardItems(items, Shard{i, 3})) tasks.insert(items[at].substr(0, items[at].find('/')));
    EXPECT_EQ(tasks.size(), 2u) << "shard " << i;
  }
}

TEST(Shard, DuplicateKeysStillPartition) {
  std::vector<std::string> items = {"b", "a", "b", "a", "b"};
  std::multiset<size_t> all;
  for (int i = 0; i < 2; ++i) {
    for (size_t at : shardItems(items, Shard{i, 2})) all.insert(at);
  }
  EXPECT_EQ(all, (std::multiset<size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(shardItems(items, Shard{0, 2}), (std::vector<size_t>{1, 3}));
}

}  // namespace
}  // namespace tilecraft::harness
