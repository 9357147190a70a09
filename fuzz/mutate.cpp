#include "fuzz/mutate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace tilecraft::fuzz {
namespace {

struct Span {
  size_t begin = 0;
  size_t end = 0;
};

size_t pick(interp::SplitMix64& rng, size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng.next() % n); }

std::vector<Span> lineSpans(const std::string& text) {
  std::vector<Span> lines;
  size_t begin = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      lines.push_back({begin, i + 1});
      begin = i + 1;
    }
  }
  if (begin < text.size()) lines.push_back({begin, text.size()});
  return lines;
}

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

enum class TokenClass { Name, Number, Punct };

struct Token {
  Span span;
  TokenClass cls;
};

// A rough lexer, enough to pick tokens to swap or replace: names, numbers (with exponents), single punctuation.
std::vector<Token> roughTokens(const std::string& text) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (isIdentStart(c)) {
      size_t b = i;
      while (i < text.size() && isIdentChar(text[i])) ++i;
      tokens.push_back({{b, i}, TokenClass::Name});
    } else if (isDigit(c)) {
      size_t b = i;
      while (i < text.size() && (isIdentChar(text[i]) || text[i] == '.' ||
                                 ((text[i] == '+' || text[i] == '-') && (text[i - 1] == 'e' || text[i - 1] == 'E')))) {
        ++i;
      }
      tokens.push_back({{b, i}, TokenClass::Number});
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else {
      tokens.push_back({{i, i + 1}, TokenClass::Punct});
      ++i;
    }
  }
  return tokens;
}

int lineOf(const std::string& text, size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::string repeat(std::string_view piece, size_t n) {
  std::string out;
  out.reserve(piece.size() * n);
  for (size_t i = 0; i < n; ++i) out += piece;
  return out;
}

std::string deleteLine(const std::string& text, interp::SplitMix64& rng, std::string* what) {
  std::vector<Span> lines = lineSpans(text);
  if (lines.empty()) return text;
  size_t l = pick(rng, lines.size());
  *what = fmt::format("delete-line {}", l + 1);
  return text.substr(0, lines[l].begin) + text.substr(lines[l].end);
}

std::string duplicateLine(const std::string& text, interp::SplitMix64& rng, std::string* what) {
  std::vector<Span> lines = lineSpans(text);
  if (lines.empty()) return text;
  size_t from = pick(rng, lines.size());
  size_t to = pick(rng, lines.size() + 1);
  std::string line = text.substr(lines[from].begin, lines[from].end - lines[from].begin);
  if (line.empty() || line.back() != '\n') line += '\n';
  size_t at = to == lines.size() ? text.size() : lines[to].begin;
  *what = fmt::format("duplicate-line {} before line {}", from + 1, to + 1);
  std::string prefix = text.substr(0, at);
  if (!prefix.empty() && prefix.back() != '\n') prefix += '\n';
  return prefix + line + text.substr(at);
}

std::string truncate(const std::string& text, interp::SplitMix64& rng, std::string* what) {
  size_t cut = pick(rng, text.size() + 1);
  *what = fmt::format("truncate at byte {} of {}", cut, text.size());
  return text.substr(0, cut);
}

std::string swapTokens(const std::string& text, interp::SplitMix64& rng, std::string* what) {
  std::vector<Token> tokens = roughTokens(text);
  if (tokens.size() < 2) return text;
  auto textOf = [&](size_t i) { return text.substr(tokens[i].span.begin, tokens[i].span.end - tokens[i].span.begin); };
  size_t a = pick(rng, tokens.size());
  size_t b = pick(rng, tokens.size());
  // Two equal tokens would make a mutant that is the program itself: a few more draws find different ones.
  for (int tries = 0; tries < 8 && textOf(a) == textOf(b); ++tries) b = pick(rng, tokens.size());
  if (textOf(a) == textOf(b)) return text;
  if (a > b) std::swap(a, b);
  Span sa = tokens[a].span, sb = tokens[b].span;
  std::string ta = textOf(a), tb = textOf(b);
  if (rng.next() % 2 == 0) {
    *what = fmt::format("swap-tokens '{}' (line {}) and '{}' (line {})", ta, lineOf(text, sa.begin), tb,
                        lineOf(text, sb.begin));
    return text.substr(0, sa.begin) + tb + text.substr(sa.end, sb.begin - sa.end) + ta + text.substr(sb.end);
  }
  // Replace one by the other: a name used where a keyword, a dim or a number was.
  *what = fmt::format("swap-tokens replace '{}' (line {}) by '{}'", tb, lineOf(text, sb.begin), ta);
  return text.substr(0, sb.begin) + ta + text.substr(sb.end);
}

// Depths from the everyday to far past any real program; the front end must refuse the deep ones with a limit,
// never run out of stack.
constexpr size_t kDepths[] = {8, 64, 512, 4096, 30000};

std::string deepNesting(const std::string& text, interp::SplitMix64& rng, std::string* what) {
  std::vector<Token> tokens = roughTokens(text);
  std::vector<size_t> operands;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].cls != TokenClass::Punct) operands.push_back(i);
  }
  size_t depth = kDepths[pick(rng, std::size(kDepths))];
  int form = static_cast<int>(rng.next() % 5);
  if (form == 4 || operands.empty()) {
    // Nested blocks: a block header (a line ending in ':') repeated with growing indentation, then its body.
    std::vector<Span> lines = lineSpans(text);
    std::vector<size_t> headers;
    for (size_t l = 0; l < lines.size(); ++l) {
      std::string line = text.substr(lines[l].begin, lines[l].end - lines[l].begin);
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
      // Short headers only: a header a stacked mutation already made huge would be copied a thousand times.
      if (!line.empty() && line.size() < 200 && line.back() == ':' && line.find("def ") == std::string::npos)
        headers.push_back(l);
    }
    if (headers.empty()) return text;
    size_t l = headers[pick(rng, headers.size())];
    depth = std::min<size_t>(depth, 1000);  // each level adds a line as long as the depth: 2 MB at most
    std::string header = text.substr(lines[l].begin, lines[l].end - lines[l].begin);
    size_t indent = header.find_first_not_of(' ');
    std::string body = header.substr(indent);
    if (body.empty() || body.back() != '\n') body += '\n';
    std::string nested;
    for (size_t d = 0; d < depth; ++d) nested += std::string(indent + 4 * d, ' ') + body;
    nested += std::string(indent + 4 * depth, ' ') + "pass\n";
    *what = fmt::format("deep-nesting block at line {} x{}", l + 1, depth);
    return text.substr(0, lines[l].begin) + nested + text.substr(lines[l].end);
  }
  Span s = tokens[operands[pick(rng, operands.size())]].span;
  std::string operand = text.substr(s.begin, s.end - s.begin);
  std::string replacement;
  const char* name = "";
  switch (form) {
    case 0:
      replacement = repeat("(", depth) + operand + repeat(")", depth);
      name = "parentheses";
      break;
    case 1:
      replacement = repeat("-", depth) + operand;
      name = "unary minus";
      break;
    case 2:
      replacement = operand + repeat(" + " + operand, depth);
      name = "long sum";
      break;
    default:
      replacement = repeat("abs(", depth) + operand + repeat(")", depth);
      name = "nested calls";
      break;
  }
  *what = fmt::format("deep-nesting {} x{} around '{}' (line {})", name, depth, operand, lineOf(text, s.begin));
  return text.substr(0, s.begin) + replacement + text.substr(s.end);
}

// clang-format off
const char* const kHugeNumbers[] = {
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616",
    "99999999999999999999999999999999999999", "4294967296", "2147483648", "2**70", "2**63", "2**64 - 1",
    "10**30", "(-2)**63", "1e308", "1e309", "-1e309", "1e-400", "1.7976931348623157e308 * 10", "0x7fffffffffffffff",
    "1e999999999999", "0", "-1", "-0", "0.0", "3.4e38", "65504", "1_000_000",
};
// clang-format on

std::string hugeNumber(const std::string& text, interp::SplitMix64& rng, std::string* what) {
  std::vector<Token> tokens = roughTokens(text);
  std::vector<size_t> numbers, names;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].cls == TokenClass::Number) numbers.push_back(i);
    if (tokens[i].cls == TokenClass::Name) names.push_back(i);
  }
  std::string huge = kHugeNumbers[pick(rng, std::size(kHugeNumbers))];
  if (rng.next() % 8 == 0) huge = "1" + std::string(400 + pick(rng, 4000), '0');
  const std::vector<size_t>& candidates = numbers.empty() || rng.next() % 4 == 0 ? names : numbers;
  if (candidates.empty()) return text;
  Span s = tokens[candidates[pick(rng, candidates.size())]].span;
  *what = fmt::format("huge-number replace '{}' (line {}) by {}", text.substr(s.begin, s.end - s.begin),
                      lineOf(text, s.begin), huge.size() > 40 ? fmt::format("1e{}", huge.size() - 1) : huge);
  return text.substr(0, s.begin) + huge + text.substr(s.end);
}

// clang-format off
const char* const kOddSequences[] = {
    "\xff", "\xfe", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\x80", "\xe2\x82", "\xf0\x9f\x98",
    "\xc3\xa9", "\xf0\x9f\x98\x80", "\xe2\x80\xa8", "\xef\xbb\xbf", "\xe2\x80\x8b", "\\", "\\\n", "\"", "'", "\t",
};
// clang-format on

std::string oddBytes(const std::string& text, interp::SplitMix64& rng, std::string* what) {
  int form = static_cast<int>(rng.next() % 6);
  if (form == 0) {
    *what = "odd-bytes UTF-8 BOM at the start";
    return "\xef\xbb\xbf" + text;
  }
  if (form == 1 || form == 2) {
    std::string out;
    for (char c : text) {
      if (c == '\n') out += form == 1 ? "\r\n" : "\r";
      else out += c;
    }
    *what = form == 1 ? "odd-bytes CRLF line ends" : "odd-bytes CR line ends";
    return out;
  }
  size_t at = pick(rng, text.size() + 1);
  std::string bytes;
  if (form == 3) {
    // A control character: NUL, ^A .. ^_, DEL, or a lone CR.
    const int control = static_cast<int>(rng.next() % 34);
    bytes = control == 32 ? std::string("\x7f") : control == 33 ? std::string("\r") : std::string(1, char(control));
  } else {
    bytes = kOddSequences[pick(rng, std::size(kOddSequences))];
  }
  std::string hex;
  for (unsigned char c : bytes) hex += fmt::format("{}{:02x}", hex.empty() ? "" : " ", c);
  *what = fmt::format("odd-bytes insert {} at byte {} (line {})", hex, at, lineOf(text, at));
  return text.substr(0, at) + bytes + text.substr(at);
}

}  // namespace

const std::vector<MutationKind>& allMutationKinds() {
  static const std::vector<MutationKind> kinds = {
      MutationKind::DeleteLine,  MutationKind::DuplicateLine, MutationKind::Truncate, MutationKind::SwapTokens,
      MutationKind::DeepNesting, MutationKind::HugeNumber,    MutationKind::OddBytes,
  };
  return kinds;
}

const char* mutationKindName(MutationKind kind) {
  switch (kind) {
    case MutationKind::DeleteLine: return "delete-line";
    case MutationKind::DuplicateLine: return "duplicate-line";
    case MutationKind::Truncate: return "truncate";
    case MutationKind::SwapTokens: return "swap-tokens";
    case MutationKind::DeepNesting: return "deep-nesting";
    case MutationKind::HugeNumber: return "huge-number";
    case MutationKind::OddBytes: return "odd-bytes";
  }
  return "?";
}

std::string mutationKindList(const std::vector<MutationKind>& kinds) {
  std::string out;
  for (MutationKind k : kinds) out += (out.empty() ? "" : ",") + std::string(mutationKindName(k));
  return out;
}

std::optional<std::vector<MutationKind>> parseMutationKinds(const std::string& list, std::string* error) {
  if (list == "all") return allMutationKinds();
  std::vector<MutationKind> kinds;
  size_t begin = 0;
  while (begin <= list.size()) {
    size_t end = std::min(list.find(',', begin), list.size());
    std::string name = list.substr(begin, end - begin);
    auto known = std::find_if(allMutationKinds().begin(), allMutationKinds().end(),
                              [&](MutationKind k) { return name == mutationKindName(k); });
    if (known == allMutationKinds().end()) {
      *error = fmt::format("unknown mutation kind '{}' (expected all, or a comma-separated list of {})", name,
                           mutationKindList(allMutationKinds()));
      return std::nullopt;
    }
    if (std::find(kinds.begin(), kinds.end(), *known) == kinds.end()) kinds.push_back(*known);
    begin = end + 1;
  }
  return kinds;
}

std::string applyMutation(MutationKind kind, const std::string& text, interp::SplitMix64& rng,
                          std::string* description) {
  switch (kind) {
    case MutationKind::DeleteLine: return deleteLine(text, rng, description);
    case MutationKind::DuplicateLine: return duplicateLine(text, rng, description);
    case MutationKind::Truncate: return truncate(text, rng, description);
    case MutationKind::SwapTokens: return swapTokens(text, rng, description);
    case MutationKind::DeepNesting: return deepNesting(text, rng, description);
    case MutationKind::HugeNumber: return hugeNumber(text, rng, description);
    case MutationKind::OddBytes: return oddBytes(text, rng, description);
  }
  return text;
}

Mutant makeMutant(const std::vector<SeedProgram>& programs, const std::vector<MutationKind>& kinds, uint64_t seed) {
  // Mixed once more so that neighbouring seeds do not start from neighbouring SplitMix64 states.
  interp::SplitMix64 rng(seed * 0x2545F4914F6CDD1Dull + 0x5851F42D4C957F2Dull);
  Mutant m;
  m.seed = seed;
  const SeedProgram& program = programs[pick(rng, programs.size())];
  m.program = program.name;
  m.text = program.text;
  // Mostly one edit (almost-right programs), sometimes two or three stacked.
  uint64_t roll = rng.next() % 8;
  size_t steps = roll < 5 ? 1 : roll < 7 ? 2 : 3;
  for (size_t i = 0; i < steps; ++i) {
    MutationKind kind = kinds[pick(rng, kinds.size())];
    std::string description = mutationKindName(kind);
    m.text = applyMutation(kind, m.text, rng, &description);
    m.steps.push_back(description);
  }
  return m;
}

}  // namespace tilecraft::fuzz
