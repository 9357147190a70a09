// Training data from the agent's transcripts (docs/generation.md, "Exporting training data"): the verified attempts
// as chat-format SFT samples (Ascend-CoT: the reasoning and the reply in the assistant turn), and preference pairs
// over the replies to one prompt, ordered correct > wrong > does not compile and, among correct ones, by limit score
// (KernelGen-LM's recipe), in TRL's and OpenAI's formats. The JSON Schemas of the three outputs are agent/schemas/.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "llm/chat.h"

namespace tilecraft::agent {

// What an export needs of an `attempt` line of transcripts.jsonl.
struct TranscriptAttempt {
  int line = 0;  // 1-based, for messages
  std::string task;
  int sample = 0, round = 0;
  std::vector<llm::ChatMessage> messages;  // what the model was sent
  std::string reply, reasoning, stage;
  bool compiled = false, correct = false;
  double limitScore = 0;
};

struct TranscriptRead {
  std::vector<TranscriptAttempt> attempts;
  // "FILE:LINE: what is wrong" for each line that was skipped (not JSON, a field missing or of the wrong type).
  std::vector<std::string> problems;
};

// Every `attempt` line; `sample` lines are skipped silently, every other line with a problem.
TranscriptRead readTranscripts(std::istream& in, const std::string& fileName);

// The assistant turn an export writes for an attempt: "<think>\nREASONING\n</think>\n\nREPLY" when the model gave a
// reasoning, else the reply alone.
std::string assistantTurn(const std::string& reply, const std::string& reasoning);

// One JSON line (no newline) per correct attempt: {"messages": [the conversation it was sent, its reply]}. Earlier
// assistant turns of a repair (the attempts the feedback was about) carry "weight": 0, so a trainer that reads
// OpenAI's weights learns only the verified reply.
std::vector<std::string> sftLines(const std::vector<TranscriptAttempt>& attempts);

enum class PreferenceFormat { Trl, OpenAi };

struct PreferenceCounts {
  int prompts = 0;  // distinct (task, first-round prompt)
  int pairs = 0;
};

// Pairs (chosen, rejected) of distinct replies to the same first-round prompt (the system and user turns of round
// 0; the same task), the chosen ranked strictly above the rejected: correct (among correct ones, a higher limit
// score) > wrong (compiled, judged wrong) > does not compile (a compile or format error, or the harness's build
// failed). Attempts with no reply (a transport error, an empty reply) or no verdict (the judge refused the request) are left out.
// In transcript order of the chosen, then of the rejected.
std::vector<std::string> preferenceLines(const std::vector<TranscriptAttempt>& attempts, PreferenceFormat format,
                                         PreferenceCounts* counts);

}  // namespace tilecraft::agent
