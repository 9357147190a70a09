#include "harness/merge.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/metrics.h"
#include "support/files.h"

namespace tilecraft::harness {
namespace {

// What two copies of a row must agree on: everything but what evaluating it cost.
std::string content(Record r) {
  r.wallSeconds = 0;
  r.kernelSeconds = 0;
  return recordToJson(r);
}

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string reportInfoToJson(const ReportInfo& info) {
  nlohmann::ordered_json j = {{"title", info.title},
                              {"suite", info.suite},
                              {"solutions", info.solutions},
                              {"rule", info.rule},
                              {"arch", info.arch}};
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<ReportInfo> parseReportInfo(const std::string& text, std::string* error) {
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
    ReportInfo info;
    for (auto [key, field] :
         {std::pair{"title", &info.title}, std::pair{"suite", &info.suite}, std::pair{"solutions", &info.solutions},
          std::pair{"rule", &info.rule}, std::pair{"arch", &info.arch}}) {
      auto it = j.find(key);
      if (it == j.end()) continue;
      if (!it->is_string()) throw std::runtime_error(fmt::format("'{}' is not a string", key));
      *field = it->get<std::string>();
    }
    return info;
  } catch (const std::exception& e) {
    std::string what = e.what();
    if (size_t close = what.find("] "); what.rfind("[json", 0) == 0 && close != std::string::npos) {
      what = what.substr(close + 2);
    }
    *error = what;
    return std::nullopt;
  }
}

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
        *error = fmt::format("duplicate record '{}' with different content: {} and {}", key, it->second.where, where);
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
  std::optional<ReportInfo> info;
  std::string infoPath;
  for (const std::string& shard : shards) {
    bool file = endsWith(shard, ".jsonl");
    std::string path = file ? shard : shard + "/results.jsonl";
    std::optional<std::string> text = support::readFile(path);
    if (!text) {
      *error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
      return std::nullopt;
    }
    results.push_back({path, std::move(*text)});
    if (file) continue;
    std::string thisInfoPath = shard + "/" + kReportInfoFile;
    std::optional<std::string> infoText = support::readFile(thisInfoPath);
    if (!infoText) continue;
    std::string why;
    std::optional<ReportInfo> thisInfo = parseReportInfo(*infoText, &why);
    if (!thisInfo) {
      *error = fmt::format("{}: {}", thisInfoPath, why);
      return std::nullopt;
    }
    if (info && reportInfoToJson(*info) != reportInfoToJson(*thisInfo)) {
      *error = fmt::format("the shards are not of one run: {} says {}, {} says {}", infoPath, reportInfoToJson(*info),
                           thisInfoPath, reportInfoToJson(*thisInfo));
      return std::nullopt;
    }
    info = thisInfo;
    infoPath = thisInfoPath;
  }
  std::optional<MergedRows> merged = mergeShardResults(results, error);
  if (merged) merged->info = info;
  return merged;
}

int runBenchMerge(const std::vector<std::string>& shards, const std::string& outDir, std::ostream& out,
                  std::ostream& err) {
  if (shards.empty()) {
    err << "error: bench merge: no shard folder given\n";
    return 1;
  }
  std::string error;
  std::optional<MergedRows> merged = mergeShards(shards, &error);
  if (!merged) {
    err << "error: " << error << "\n";
    return 1;
  }
  for (const std::string& warning : merged->warnings) err << "warning: " << warning << "\n";
  ReportInfo info = merged->info.value_or(ReportInfo{"tilecraft bench", "", "", "", ""});
  std::string rows;
  for (const Record& r : merged->rows) rows += recordToJson(r) + "\n";
  Summary summary = summarize(merged->rows);
  std::vector<std::pair<std::string, std::string>> files = {{"results.jsonl", rows},
                                                            {"summary.md", renderMarkdown(summary, info)},
                                                            {"report.html", renderHtml(summary, info)}};
  if (merged->info) files.emplace_back(kReportInfoFile, reportInfoToJson(info) + "\n");
  // Every file is written beside its final name first, so a failure leaves DIR as it was.
  std::error_code ec;
  std::filesystem::create_directories(outDir, ec);
  for (const auto& [name, text] : files) {
    std::string tmp = outDir + "/" + name + ".tmp";
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    file << text;
    file.close();
    if (ec || !file) {
      err << fmt::format("error: cannot write {}: {}\n", tmp, ec ? ec.message() : std::strerror(errno));
      for (const auto& [written, unused] : files) std::filesystem::remove(outDir + "/" + written + ".tmp", ec);
      return 1;
    }
  }
  for (const auto& [name, text] : files) {
    std::filesystem::rename(outDir + "/" + name + ".tmp", outDir + "/" + name, ec);
  }
  out << renderTable(summary, info);
  return 0;
}

}  // namespace tilecraft::harness
