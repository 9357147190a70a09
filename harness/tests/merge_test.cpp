#include "harness/merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/metrics.h"
#include "harness/report.h"

namespace tilecraft::harness {
namespace {

Record row(const std::string& task, const std::string& caseId, int sample, bool correct) {
  Record r;
  r.task = task;
  r.caseId = caseId;
  r.sample = sample;
  r.correct = correct;
  r.compiled = true;
  r.failure = correct ? Failure::None : Failure::Crash;
  r.simUs = 12.5;
  r.wallSeconds = 0.75;
  return r;
}

std::string jsonl(const std::vector<Record>& rows) {
  std::string text;
  for (const Record& r : rows) text += recordToJson(r) + "\n";
  return text;
}

std::vector<std::string> keys(const MergedRows& merged) {
  std::vector<std::string> out;
  for (const Record& r : merged.rows) out.push_back(recordKey(r));
  return out;
}

TEST(Merge, RowsOfAllShardsSortedByKey) {
  std::string error;
  std::optional<MergedRows> merged =
      mergeShardResults({{"s0/results.jsonl", jsonl({row("b", "0", 0, true), row("a", "1", 0, false)})},
                         {"s1/results.jsonl", jsonl({row("a", "0", 0, true)}) + "\n\n"}},
                        &error);
  ASSERT_TRUE(merged.has_value()) << error;
  EXPECT_EQ(keys(*merged), (std::vector<std::string>{"a/0/0", "a/1/0", "b/0/0"}));
  EXPECT_TRUE(merged->warnings.empty());
  EXPECT_EQ(merged->rows[1].failure, Failure::Crash);
}

TEST(Merge, MalformedLinesAreReportedWithFileAndLineAndSkipped) {
  std::string good = recordToJson(row("a", "0", 0, true));
  std::string text = good + "\n{\"task\": \"x\"}\n" + good.substr(0, 20);  // a shard killed mid-write
  std::string error;
  std::optional<MergedRows> merged = mergeShardResults({{"shard-1/results.jsonl", text}}, &error);
  ASSERT_TRUE(merged.has_value()) << error;
  EXPECT_EQ(keys(*merged), std::vector<std::string>{"a/0/0"});
  ASSERT_EQ(merged->warnings.size(), 2u);
  EXPECT_EQ(merged->warnings[0], "shard-1/results.jsonl:2: skipped a malformed record: missing 'case'");
  EXPECT_EQ(merged->warnings[1].rfind("shard-1/results.jsonl:3: skipped a malformed record: ", 0), 0u)
      << merged->warnings[1];
}

TEST(Merge, EqualDuplicatesAreKeptOnceWhateverTheirWallTime) {
  Record again = row("a", "0", 0, true);
  again.wallSeconds = 9;
  std::string error;
  std::optional<MergedRows> merged =
      mergeShardResults({{"s0", jsonl({row("a", "0", 0, true)})}, {"s1", jsonl({again})}}, &error);
  ASSERT_TRUE(merged.has_value()) << error;
  EXPECT_EQ(merged->rows.size(), 1u);
}

TEST(Merge, DuplicatesThatDisagreeAreAnError) {
  std::string error;
  std::optional<MergedRows> merged =
      mergeShardResults({{"s0/results.jsonl", jsonl({row("b", "0", 0, true), row("a", "0", 0, true)})},
                         {"s1/results.jsonl", jsonl({row("a", "0", 0, false)})}},
                        &error);
  EXPECT_FALSE(merged.has_value());
  EXPECT_EQ(error, "duplicate record 'a/0/0' with different content: s0/results.jsonl:2 and s1/results.jsonl:1");
}

TEST(Merge, ReadsShardFoldersAndJsonlFiles) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilecraft-merge-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "shard-0");
  std::ofstream(dir / "shard-0" / "results.jsonl") << jsonl({row("a", "0", 0, true)});
  std::ofstream(dir / "extra.jsonl") << jsonl({row("c", "0", 0, true)});
  std::string error;
  std::optional<MergedRows> merged = mergeShards({(dir / "shard-0").string(), (dir / "extra.jsonl").string()}, &error);
  ASSERT_TRUE(merged.has_value()) << error;
  EXPECT_EQ(keys(*merged), (std::vector<std::string>{"a/0/0", "c/0/0"}));
  EXPECT_FALSE(mergeShards({(dir / "shard-9").string()}, &error).has_value());
  EXPECT_EQ(error, "cannot read " + (dir / "shard-9").string() + "/results.jsonl: No such file or directory");
  fs::remove_all(dir);
}

TEST(Merge, ReportInfoOfTheShardsHeadsTheMergedReports) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilecraft-merge-info-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ReportInfo info{"tilecraft bench", "tasks/ more/", "sol \"x\"", "cann", "910b2"};
  for (int i = 0; i < 2; ++i) {
    fs::create_directories(dir / ("shard-" + std::to_string(i)));
    std::ofstream(dir / ("shard-" + std::to_string(i)) / "results.jsonl")
        << jsonl({row("t", std::to_string(i), 0, true)});
    std::ofstream(dir / ("shard-" + std::to_string(i)) / kReportInfoFile) << reportInfoToJson(info) << "\n";
  }
  std::vector<std::string> shards = {(dir / "shard-0").string(), (dir / "shard-1").string()};
  std::string error;
  std::optional<MergedRows> merged = mergeShards(shards, &error);
  ASSERT_TRUE(merged.has_value()) << error;
  ASSERT_TRUE(merged->info.has_value());
  EXPECT_EQ(reportInfoToJson(*merged->info), reportInfoToJson(info));
  EXPECT_EQ(merged->info->solutions, "sol \"x\"");

  ReportInfo other = info;
  other.rule = "allclose";
  std::ofstream(dir / "shard-1" / kReportInfoFile) << reportInfoToJson(other);
  EXPECT_FALSE(mergeShards(shards, &error).has_value());
  EXPECT_EQ(error, "the shards are not of one run: " + shards[0] + "/report-info.json says " + reportInfoToJson(info) +
                       ", " + shards[1] + "/report-info.json says " + reportInfoToJson(other));

  std::ofstream(dir / "shard-1" / kReportInfoFile) << "{\"rule\": 3}";
  EXPECT_FALSE(mergeShards(shards, &error).has_value());
  EXPECT_EQ(error, shards[1] + "/report-info.json: 'rule' is not a string");
  fs::remove_all(dir);
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(BenchMerge, WritesWhatASingleRunWrites) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilecraft-bench-merge-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ReportInfo info{"tilecraft bench", "tasks/", "solutions/", "cann", "910b2"};
  std::vector<Record> all = {row("a", "0", 0, true), row("a", "1", 0, false), row("b", "0", 0, true)};
  fs::create_directories(dir / "shard-0");
  fs::create_directories(dir / "shard-1");
  std::ofstream(dir / "shard-0" / "results.jsonl") << jsonl({all[2], all[0]}) << "{torn";
  std::ofstream(dir / "shard-1" / "results.jsonl") << jsonl({all[1]});
  for (const char* shard : {"shard-0", "shard-1"})
    std::ofstream(dir / shard / kReportInfoFile) << reportInfoToJson(info);
  std::ostringstream out, err;
  int status = runBenchMerge({(dir / "shard-0").string(), (dir / "shard-1").string()}, dir.string(), out, err);
  EXPECT_EQ(status, 0) << err.str();
  // The torn last line of shard 0 is skipped with its place; nlohmann's own words follow.
  std::string warning = "warning: " + (dir / "shard-0").string() + "/results.jsonl:3: skipped a malformed record: ";
  std::string printed = err.str();
  EXPECT_EQ(printed.rfind(warning, 0), 0u) << printed;
  EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 1) << printed;
  Summary local = summarize(all);
  EXPECT_EQ(out.str(), renderTable(local, info));
  EXPECT_EQ(slurp(dir / "summary.md"), renderMarkdown(local, info));
  EXPECT_EQ(slurp(dir / "report.html"), renderHtml(local, info));
  EXPECT_EQ(slurp(dir / "results.jsonl"), jsonl(all));
  EXPECT_EQ(slurp(dir / kReportInfoFile), reportInfoToJson(info) + "\n");
  fs::remove_all(dir);
}

TEST(BenchMerge, AMissingShardIsAnErrorAndWritesNothing) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilecraft-bench-merge-missing-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "shard-0");
  std::ofstream(dir / "shard-0" / "results.jsonl") << jsonl({row("a", "0", 0, true)});
  std::ostringstream out, err;
  EXPECT_EQ(runBenchMerge({(dir / "shard-0").string(), (dir / "shard-1").string()}, dir.string(), out, err), 1);
  EXPECT_EQ(err.str(),
            "error: cannot read " + (dir / "shard-1").string() + "/results.jsonl: No such file or directory\n");
  EXPECT_FALSE(fs::exists(dir / "summary.md"));
  EXPECT_FALSE(fs::exists(dir / "results.jsonl"));
  EXPECT_EQ(out.str(), "");
  std::ostringstream none;
  EXPECT_EQ(runBenchMerge({}, dir.string(), out, none), 1);
  EXPECT_EQ(none.str(), "error: bench merge: no shard folder given\n");
  fs::remove_all(dir);
}

TEST(Merge, WithoutReportInfoTheMergeHasNone) {
  std::string error;
  std::optional<MergedRows> merged = mergeShardResults({{"s0", jsonl({row("a", "0", 0, true)})}}, &error);
  ASSERT_TRUE(merged.has_value());
  EXPECT_FALSE(merged->info.has_value());
}

}  // namespace
}  // namespace tilecraft::harness
