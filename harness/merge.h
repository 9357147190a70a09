// `tilecraft bench merge SHARD... --out DIR`: the rows of several shard runs (or of any runs of disjoint
// work) as one run. Scoring the merged rows with summarize() gives the Summary, and so the reports, a single
// run gives: metrics are a pure function of the rows, and reports sort rows by key.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "harness/record.h"
#include "harness/report.h"

namespace tilecraft::harness {

// What the reports' heading says about a run (ReportInfo), saved by each shard beside its results.jsonl so
// the merge can head its reports as the local run would: a shard is run with the same title, suite,
// solutions, rule and arch as the whole.
inline constexpr const char* kReportInfoFile = "report-info.json";
std::string reportInfoToJson(const ReportInfo& info);  // one line, no newline
std::optional<ReportInfo> parseReportInfo(const std::string& text, std::string* error);

struct MergedRows {
  std::vector<Record> rows;           // one per key, sorted by recordKey
  std::vector<std::string> warnings;  // "FILE:LINE: skipped a malformed record: <why>", in file order
  std::optional<ReportInfo> info;     // the shards' report-info.json, when they wrote one
};

// One shard's results.jsonl: `name` is how messages show it (FILE), `text` its content.
struct ShardResults {
  std::string name;
  std::string text;
};

// Blank lines are ignored; a malformed line is skipped with a warning (a shard killed mid-write leaves half a
// line). The same key twice with equal content (wall time aside) is kept once; with different content it is
// an error, nullopt and `error`:
//   "duplicate record 'task/case/sample' with different content: FILE:LINE and FILE:LINE"
std::optional<MergedRows> mergeShardResults(const std::vector<ShardResults>& shards, std::string* error);

// Reads SHARD/results.jsonl for each shard folder, or SHARD itself when it names a .jsonl file, then merges;
// and SHARD/report-info.json where it exists. Errors:
//   "cannot read SHARD/results.jsonl: <reason>"
//   "SHARD/report-info.json: <why it is malformed>"
//   "the shards are not of one run: SHARD_A/report-info.json says <json>, SHARD_B/report-info.json says
//   <json>"
std::optional<MergedRows> mergeShards(const std::vector<std::string>& shards, std::string* error);

// `tilecraft bench merge SHARD... --out DIR` as a function: merges the shards and writes into DIR what a
// single run writes there: results.jsonl (the rows in key order), report-info.json (when the shards had one),
// summary.md and report.html; prints the terminal table on `out` and each warning as "warning: ..." on `err`.
// Without report-info.json the reports are headed "tilecraft bench" with no suite line. Returns the exit
// status: 0 merged, 1 on an error (printed as "error: <message>" on `err`; DIR is left as it was).
int runBenchMerge(const std::vector<std::string>& shards, const std::string& outDir, std::ostream& out,
                  std::ostream& err);

}  // namespace tilecraft::harness
