#include "agent/export.h"

#include <fmt/format.h>

#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

namespace tilecraft::agent {
using nlohmann::json;

namespace {

// The first missing or mistyped field of an attempt line, "" when it has all an export reads.
std::string missingField(const json& j) {
  const std::pair<const char*, json::value_t> fields[] = {
      {"task", json::value_t::string},           {"sample", json::value_t::number_unsigned},
      {"round", json::value_t::number_unsigned}, {"messages", json::value_t::array},
      {"reply", json::value_t::string},          {"reasoning", json::value_t::string},
      {"stage", json::value_t::string},          {"compiled", json::value_t::boolean},
      {"correct", json::value_t::boolean}};
  for (const auto& [name, type] : fields) {
    if (!j.contains(name)) return fmt::format("no \"{}\"", name);
    const json& v = j[name];
    bool ok = v.type() == type || (type == json::value_t::number_unsigned && v.is_number_integer() && v >= 0);
    if (!ok) return fmt::format("\"{}\" is a {}", name, v.type_name());
  }
  for (const json& m : j["messages"]) {
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string() || !m.contains("content") ||
        !m["content"].is_string()) {
      return "a message without a string \"role\" and \"content\"";
    }
  }
  if (j["messages"].size() < 2) return "fewer than two messages (a system and a user turn)";
  return "";
}

json message(const std::string& role, const std::string& content) { return {{"role", role}, {"content", content}}; }

std::string line(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Higher is better; nullopt: not comparable (no reply, or no verdict).
std::optional<std::pair<int, double>> preferenceRank(const TranscriptAttempt& a) {
  if (a.stage == "transport" || a.stage == "refused" || a.reply.empty()) return std::nullopt;
  if (a.correct) return std::make_pair(2, a.limitScore);
  if (a.compiled) return std::make_pair(1, 0.0);
  return std::make_pair(0, 0.0);
}

}  // namespace

TranscriptRead readTranscripts(std::istream& in, const std::string& fileName) {
  TranscriptRead read;
  std::string text;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (text.empty()) continue;
    auto problem = [&](const std::string& what) {
      read.problems.push_back(fmt::format("{}:{}: {}", fileName, number, what));
    };
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) {
      problem("not JSON");
      continue;
    }
    if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) {
      problem("not a transcript line (no \"type\")");
      continue;
    }
    std::string type = j["type"].get<std::string>();
    if (type == "sample") continue;
    if (type != "attempt") {
      problem(fmt::format("unknown line type \"{}\"", type));
      continue;
    }
    if (std::string missing = missingField(j); !missing.empty()) {
      problem("attempt with " + missing);
      continue;
    }
    TranscriptAttempt a;
    a.line = number;
    a.task = j["task"].get<std::string>();
    a.sample = j["sample"].get<int>();
    a.round = j["round"].get<int>();
    for (const json& m : j["messages"])
      a.messages.push_back({m["role"].get<std::string>(), m["content"].get<std::string>()});
    a.reply = j["reply"].get<std::string>();
    a.reasoning = j["reasoning"].get<std::string>();
    a.stage = j["stage"].get<std::string>();
    a.compiled = j["compiled"].get<bool>();
    a.correct = j["correct"].get<bool>();
    if (a.stage == "judged" && !j.contains("verdict")) a.stage = "refused";
    if (j.contains("verdict") && j["verdict"].is_object()) a.limitScore = j["verdict"].value("limit_score", 0.0);
    read.attempts.push_back(std::move(a));
  }
  return read;
}

std::string assistantTurn(const std::string& reply, const std::string& reasoning) {
  if (reasoning.empty()) return reply;
  return "<think>\n" + reasoning + "\n</think>\n\n" + reply;
}

std::vector<std::string> sftLines(const std::vector<TranscriptAttempt>& attempts) {
  std::vector<std::string> lines;
  for (const TranscriptAttempt& a : attempts) {
    if (!a.correct) continue;
    json messages = json::array();
    for (const llm::ChatMessage& m : a.messages) {
      json turn = message(m.role, m.content);
      if (m.role == "assistant") turn["weight"] = 0;
      messages.push_back(std::move(turn));
    }
    json last = message("assistant", assistantTurn(a.reply, a.reasoning));
    last["weight"] = 1;
    messages.push_back(std::move(last));
    lines.push_back(line({{"messages", messages}}));
  }
  return lines;
}

std::vector<std::string> preferenceLines(const std::vector<TranscriptAttempt>& attempts, PreferenceFormat format,
                                         PreferenceCounts* counts) {
  struct Candidate {
    std::string response;
    std::pair<int, double> rank;
  };
  struct Group {
    std::vector<llm::ChatMessage> prompt;
    std::vector<Candidate> candidates;
  };
  // Groups in the order their first attempt appears, so the output follows the transcripts.
  std::vector<Group> groups;
  std::map<std::string, size_t> groupOf;
  for (const TranscriptAttempt& a : attempts) {
    std::optional<std::pair<int, double>> rank = preferenceRank(a);
    if (!rank) continue;
    std::vector<llm::ChatMessage> prompt(a.messages.begin(), a.messages.begin() + 2);
    std::string key = line({a.task, prompt[0].role, prompt[0].content, prompt[1].role, prompt[1].content});
    auto [it, inserted] = groupOf.emplace(key, groups.size());
    if (inserted) groups.push_back({prompt, {}});
    Group& group = groups[it->second];
    std::string response = assistantTurn(a.reply, a.reasoning);
    bool seen = false;
    for (Candidate& c : group.candidates) {
      if (c.response != response) continue;
      c.rank = std::max(c.rank, *rank);
      seen = true;
    }
    if (!seen) group.candidates.push_back({std::move(response), *rank});
  }
  std::vector<std::string> lines;
  for (const Group& group : groups) {
    json prompt = json::array();
    for (const llm::ChatMessage& m : group.prompt) prompt.push_back(message(m.role, m.content));
    for (const Candidate& chosen : group.candidates) {
      for (const Candidate& rejected : group.candidates) {
        if (!(chosen.rank > rejected.rank)) continue;
        json better = json::array({message("assistant", chosen.response)});
        json worse = json::array({message("assistant", rejected.response)});
        if (format == PreferenceFormat::Trl) {
          lines.push_back(line({{"prompt", prompt}, {"chosen", better}, {"rejected", worse}}));
        } else {
          lines.push_back(
              line({{"input", {{"messages", prompt}}}, {"preferred_output", better}, {"non_preferred_output", worse}}));
        }
      }
    }
  }
  if (counts) {
    counts->prompts = static_cast<int>(groups.size());
    counts->pairs = static_cast<int>(lines.size());
  }
  return lines;
}

}  // namespace tilecraft::agent
