#include "agent/fix_memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "llm/response_cache.h"
#include "support/files.h"

namespace tilecraft::agent {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::set<std::string> wordsOf(const std::string& text) {
  std::set<std::string> words;
  std::string word;
  for (char c : text + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.insert(word);
      word.clear();
    }
  }
  return words;
}

double jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
  if (a.empty() || b.empty()) return 0;
  size_t common = 0;
  for (const std::string& w : a) common += b.count(w);
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

std::string fixId(const Fix& f) { return llm::sha256Hex(f.mode + '\n' + f.signature + '\n' + f.edit).substr(0, 16); }

json fixJson(const Fix& f) {
  return {{"id", f.id},     {"mode", f.mode}, {"kind", f.kind}, {"signature", f.signature},
          {"edit", f.edit}, {"task", f.task}, {"seen", f.seen}};
}

// An attempt line of a transcript as the miner needs it.
struct MinedAttempt {
  std::string task;
  int sample = 0, round = 0;
  std::map<std::string, std::string> files;
  AttemptFailure failure;
  std::string mode;
};

AttemptFailure failureOfJson(const json& j) {
  std::string stage = j.value("stage", "");
  if (stage == "compile") return {"compile", j.value("error", "")};
  if (stage != "judged" || j.value("correct", false) || !j.contains("verdict")) return {};
  for (const json& c : j["verdict"].value("cases", json::array())) {
    if (!c.value("correct", false)) return {c.value("failure", ""), c.value("message", "")};
  }
  return {};
}

}  // namespace

AttemptFailure failureOf(const Attempt& a) {
  if (a.stage == Stage::Compile) return {"compile", a.error};
  if (a.stage != Stage::Judged || a.correct()) return {};
  for (const service::CaseVerdict& c : a.verdict.cases) {
    if (!c.correct) return {c.failure, c.message};
  }
  return {};
}

std::string failureSignature(const std::string& text) {
  std::vector<std::string> lines = linesOf(text);
  std::string line;
  for (const std::string& l : lines) {
    if (l.find("error:") != std::string::npos) {
      line = l;
      break;
    }
  }
  if (line.empty() && !lines.empty()) line = lines.front();
  static const std::regex place(R"(^\s*[^\s:]+:\d+(:\d+)?:\s*)");
  line = std::regex_replace(line, place, "");
  static const std::regex digits(R"(\d+)");
  line = std::regex_replace(line, digits, "N");
  std::string out;
  for (char c : line) {
    bool blank = std::isspace(static_cast<unsigned char>(c));
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string editBetween(const std::map<std::string, std::string>& before,
                        const std::map<std::string, std::string>& after, size_t maxLines) {
  std::set<std::string> names;
  for (const auto& [name, text] : before) names.insert(name);
  for (const auto& [name, text] : after) names.insert(name);
  std::string out;
  for (const std::string& name : names) {
    auto b = before.find(name), a = after.find(name);
    std::vector<std::string> old = b == before.end() ? std::vector<std::string>{} : linesOf(b->second);
    std::vector<std::string> now = a == after.end() ? std::vector<std::string>{} : linesOf(a->second);
    if (b != before.end() && a != after.end() && b->second == a->second) continue;
    size_t head = 0;
    while (head < old.size() && head < now.size() && old[head] == now[head]) ++head;
    size_t tail = 0;
    while (tail < old.size() - head && tail < now.size() - head &&
           old[old.size() - 1 - tail] == now[now.size() - 1 - tail])
      ++tail;
    out += fmt::format("--- {}\n", name);
    size_t written = 0;
    for (size_t i = head; i < old.size() - tail && written < maxLines; ++i, ++written) out += "-" + old[i] + "\n";
    for (size_t i = head; i < now.size() - tail && written < maxLines; ++i, ++written) out += "+" + now[i] + "\n";
    if ((old.size() - tail - head) + (now.size() - tail - head) > maxLines) out += "(cut)\n";
  }
  return out;
}

std::vector<Fix> mineFixes(const fs::path& transcripts, std::vector<std::string>* problems) {
  std::ifstream in(transcripts);
  if (!in) {
    problems->push_back(fmt::format("{}: cannot read the transcripts", transcripts.string()));
    return {};
  }
  std::map<std::pair<std::string, int>, std::vector<MinedAttempt>> samples;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    json j = json::parse(line, nullptr, false);
    std::string type = j.is_object() ? j.value("type", "") : "";
    if (type == "sample") continue;
    if (type != "attempt" || !j.contains("task") || !j["task"].is_string()) {
      problems->push_back(
          fmt::format("{}:{}: not an attempt or sample line of a transcript", transcripts.string(), number));
      continue;
    }
    MinedAttempt a;
    a.task = j["task"].get<std::string>();
    a.sample = j.value("sample", 0);
    a.round = j.value("round", 0);
    a.mode = j.value("mode", "dsl");
    if (j.contains("files") && j["files"].is_object()) {
      for (const auto& [name, text] : j["files"].items()) {
        if (text.is_string()) a.files[name] = text.get<std::string>();
      }
    }
    a.failure = failureOfJson(j);
    samples[{a.task, a.sample}].push_back(std::move(a));
  }
  std::vector<Fix> fixes;
  for (auto& [key, attempts] : samples) {
    std::stable_sort(attempts.begin(), attempts.end(),
                     [](const MinedAttempt& x, const MinedAttempt& y) { return x.round < y.round; });
    for (size_t i = 0; i + 1 < attempts.size(); ++i) {
      const MinedAttempt& failed = attempts[i];
      const MinedAttempt& next = attempts[i + 1];
      if (failed.failure.kind.empty() || failed.files.empty() || next.files.empty()) continue;
      Fix f;
      f.mode = failed.mode;
      f.kind = failed.failure.kind;
      f.signature = failureSignature(failed.failure.text);
      // The next attempt got past it: no failure, or another one.
      if (!next.failure.kind.empty() && next.failure.kind == f.kind &&
          failureSignature(next.failure.text) == f.signature)
        continue;
      f.edit = editBetween(failed.files, next.files);
      if (f.signature.empty() || f.edit.empty()) continue;
      f.task = failed.task;
      f.id = fixId(f);
      fixes.push_back(std::move(f));
    }
  }
  return fixes;
}

FixMemory FixMemory::load(const fs::path& file, std::vector<std::string>* problems) {
  FixMemory memory;
  std::ifstream in(file);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    json j = json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("signature") || !j["signature"].is_string() || !j.contains("edit") ||
        !j["edit"].is_string()) {
      problems->push_back(
          fmt::format("{}:{}: not a fix (a JSON object with signature and edit)", file.string(), number));
      continue;
    }
    Fix f;
    f.mode = j.value("mode", "dsl");
    f.kind = j.value("kind", "");
    f.signature = j["signature"].get<std::string>();
    f.edit = j["edit"].get<std::string>();
    f.task = j.value("task", "");
    f.seen = std::max(1, j.value("seen", 1));
    f.id = fixId(f);
    memory.add({f});
  }
  return memory;
}

bool FixMemory::save(const fs::path& file, std::string* error) const {
  std::string text;
  for (const Fix& f : fixes_) text += fixJson(f).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  return support::writeFileAtomically(file, text, error);
}

int FixMemory::add(const std::vector<Fix>& fixes) {
  int added = 0;
  for (const Fix& f : fixes) {
    auto at = std::lower_bound(fixes_.begin(), fixes_.end(), f.id,
                               [](const Fix& x, const std::string& id) { return x.id < id; });
    if (at != fixes_.end() && at->id == f.id) {
      at->seen += f.seen;
    } else {
      fixes_.insert(at, f);
      ++added;
    }
  }
  return added;
}

int FixMemory::prune(int minSeen, size_t keep, const std::vector<std::string>& drop) {
  size_t before = fixes_.size();
  std::erase_if(fixes_, [&](const Fix& f) {
    return f.seen < minSeen || std::find(drop.begin(), drop.end(), f.id) != drop.end();
  });
  if (keep > 0 && fixes_.size() > keep) {
    std::vector<Fix> ranked = fixes_;
    std::stable_sort(ranked.begin(), ranked.end(), [](const Fix& a, const Fix& b) { return a.seen > b.seen; });
    ranked.resize(keep);
    std::sort(ranked.begin(), ranked.end(), [](const Fix& a, const Fix& b) { return a.id < b.id; });
    fixes_ = std::move(ranked);
  }
  return static_cast<int>(before - fixes_.size());
}

std::vector<Fix> FixMemory::closest(const std::string& signature, const std::string& mode, size_t count) const {
  std::set<std::string> want = wordsOf(signature);
  std::vector<std::pair<double, const Fix*>> scored;
  for (const Fix& f : fixes_) {
    if (f.mode != mode) continue;
    double score = jaccard(want, wordsOf(f.signature));
    if (score >= 0.5) scored.push_back({score, &f});
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    return a.second->seen > b.second->seen;
  });
  std::vector<Fix> out;
  for (size_t i = 0; i < scored.size() && i < count; ++i) out.push_back(*scored[i].second);
  return out;
}

std::string memoryHint(const std::vector<Fix>& fixes) {
  if (fixes.empty()) return "";
  std::string out = "\n\nFixes that worked for similar failures before (from the fix memory):\n";
  for (const Fix& f : fixes) {
    out += fmt::format("\n- `{}` (seen {} time{}), fixed by:\n\n```diff\n{}```\n", f.signature, f.seen,
                       f.seen == 1 ? "" : "s", f.edit);
  }
  return out;
}

}  // namespace tilecraft::agent
