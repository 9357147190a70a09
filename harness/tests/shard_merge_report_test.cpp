// Sharded = local, without Slurm: rows split by --shard, written as each shard's results.jsonl, merged and scored
// render the very reports the unsplit rows do.
#include <gtest/gtest.h>

#include "harness/merge.h"
#include "harness/metrics.h"
#include "harness/report.h"
#include "harness/shard.h"

namespace tilecraft::harness {
namespace {

std::vector<Record> suiteRows() {
  std::vector<Record> rows;
  const char* const tasks[] = {"add", "gelu", "layer_norm", "matmul", "softmax"};
  int serial = 0;
  for (const char* task : tasks) {
    for (int c = 0; c < 4; ++c) {
      for (int sample = 0; sample < 2; ++sample, ++serial) {
        Record r;
        r.task = task;
        r.category = serial % 3 == 0 ? "activation" : "math";
        r.level = 1 + static_cast<int>(std::string(task).size() % 3);
        r.caseId = std::to_string(c);
        r.sample = sample;
        r.compiled = serial % 7 != 3;
        r.correct = r.compiled && serial % 5 != 1;
        r.failure = !r.compiled ? Failure::Syntax : r.correct ? Failure::None : Failure::NumericMismatch;
        r.message = r.correct ? "" : "case " + r.caseId;
        r.simUs = 10 + serial;
        r.eagerUs = 12 + 2 * (serial % 4);
        r.limitUs = 5;
        r.pipeBusyUs = {{"MTE2", 0.5 * r.simUs}, {"V", 0.25 * r.simUs}};
        r.wallSeconds = 0.1 * serial;  // differs between runs: must not reach the reports
        rows.push_back(r);
      }
    }
  }
  return rows;
}

TEST(ShardMergeReport, MergedShardsRenderTheLocalReports) {
  std::vector<Record> rows = suiteRows();
  ReportInfo info{"tilecraft bench --smoke tasks/", "tasks/", "solutions/", "cann", "910b2"};
  Summary local = summarize(rows);
  std::vector<std::string> keys;
  for (const Record& r : rows) keys.push_back(recordKey(r));
  for (int n : {1, 3, 7}) {
    std::vector<ShardResults> shards;
    for (int i = 0; i < n; ++i) {
      ShardResults shard{"shard-" + std::to_string(i) + "/results.jsonl", ""};
      for (size_t at : shardItems(keys, Shard{i, n})) {
        Record r = rows[at];
        r.wallSeconds += 1;  // another machine, another wall time
        shard.text += recordToJson(r) + "\n";
      }
      shards.push_back(shard);
    }
    std::string error;
    std::optional<MergedRows> merged = mergeShardResults(shards, &error);
    ASSERT_TRUE(merged.has_value()) << error;
    EXPECT_EQ(merged->rows.size(), rows.size());
    Summary sharded = summarize(merged->rows);
    EXPECT_EQ(renderMarkdown(sharded, info), renderMarkdown(local, info)) << n << " shards";
    EXPECT_EQ(renderTable(sharded, info), renderTable(local, info)) << n << " shards";
    EXPECT_EQ(renderHtml(sharded, info), renderHtml(local, info)) << n << " shards";
  }
}

}  // namespace
}  // namespace tilecraft::harness
