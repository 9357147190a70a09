#include "dsl/lexer.h"

#include <fmt/format.h>

#include <cctype>
#include <string_view>

namespace tilecraft::dsl {

const char* tokenKindName(TokenKind kind) {
  switch (kind) {
#define X(k, text) \
  case TokenKind::k: return #k;
    TILECRAFT_TOKEN_KINDS(X)
#undef X
  }
  return "?";
}

const char* tokenKindText(TokenKind kind) {
  switch (kind) {
#define X(k, text) \
  case TokenKind::k: return text;
    TILECRAFT_TOKEN_KINDS(X)
#undef X
  }
  return "?";
}

namespace {

struct Keyword {
  std::string_view text;
  TokenKind kind;
};
constexpr Keyword kKeywords[] = {
    {"def", TokenKind::KwDef},     {"for", TokenKind::KwFor},   {"in", TokenKind::KwIn},
    {"with", TokenKind::KwWith},   {"if", TokenKind::KwIf},     {"elif", TokenKind::KwElif},
    {"else", TokenKind::KwElse},   {"pass", TokenKind::KwPass}, {"and", TokenKind::KwAnd},
    {"or", TokenKind::KwOr},       {"not", TokenKind::KwNot},   {"True", TokenKind::KwTrue},
    {"False", TokenKind::KwFalse}, {"None", TokenKind::KwNone},
};

// Longest match first.
struct Punct {
  std::string_view text;
  TokenKind kind;
};
constexpr Punct kPuncts[] = {
    {"...", TokenKind::Ellipsis},   {"**", TokenKind::StarStar},    {"//", TokenKind::SlashSlash},
    {"+=", TokenKind::PlusAssign},  {"-=", TokenKind::MinusAssign}, {"*=", TokenKind::StarAssign},
    {"/=", TokenKind::SlashAssign}, {"==", TokenKind::EqEq},        {"!=", TokenKind::NotEq},
    {"<=", TokenKind::LessEq},      {">=", TokenKind::GreaterEq},   {"->", TokenKind::Arrow},
    {"(", TokenKind::LParen},       {")", TokenKind::RParen},       {"[", TokenKind::LBracket},
    {"]", TokenKind::RBracket},     {",", TokenKind::Comma},        {":", TokenKind::Colon},
    {".", TokenKind::Dot},          {"@", TokenKind::At},           {"=", TokenKind::Assign},
    {"+", TokenKind::Plus},         {"-", TokenKind::Minus},        {"*", TokenKind::Star},
    {"/", TokenKind::Slash},        {"%", TokenKind::Percent},      {"<", TokenKind::Less},
    {">", TokenKind::Greater},
};

// The code point of the valid UTF-8 sequence text[i, i + n).
uint32_t codePoint(std::string_view text, size_t i, size_t n) {
  auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(text[i + k])); };
  if (n == 1) return byte(0);
  uint32_t cp = byte(0) & (0xFFu >> (n + 1));
  for (size_t k = 1; k < n; ++k) cp = cp << 6 | (byte(k) & 0x3F);
  return cp;
}

// A line ends at "\n", "\r\n" or a lone "\r".
bool isLineEnd(char c) { return c == '\n' || c == '\r'; }

class Lexer {
 public:
  Lexer(const support::SourceManager& sources, support::FileId file, support::DiagnosticEngine& diagnostics)
      : file_(file), text_(sources.text(file)), diagnostics_(diagnostics) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    while (pos_ < text_.size()) {
      if (atLineStart_ && depth_ == 0) {
        if (!lexIndentation()) continue;  // blank or comment-only line
      }
      lexToken();
    }
    if (!atLineStart_) add(TokenKind::Newline, pos_, pos_);
    while (indents_.size() > 1) {
      indents_.pop_back();
      add(TokenKind::Dedent, pos_, pos_);
    }
    add(TokenKind::EndOfFile, pos_, pos_);
    return std::move(tokens_);
  }

 private:
  support::Span span(size_t begin, size_t end) const {
    return support::Span{file_, static_cast<uint32_t>(begin), static_cast<uint32_t>(end)};
  }
  void add(TokenKind kind, size_t begin, size_t end, std::string text = {}) {
    if (text.empty() && end > begin) text = std::string(text_.substr(begin, end - begin));
    tokens_.push_back(Token{kind, span(begin, end), std::move(text)});
  }

  // Measures the indentation of a new logical line and emits Indent/Dedent. Returns false (having consumed the
  // line) when the line is blank or holds only a comment, which Python ignores for indentation.
  bool lexIndentation() {
    size_t begin = pos_;
    size_t width = 0;
    size_t firstTab = std::string_view::npos;
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) {
      if (text_[pos_] == '\t' && firstTab == std::string_view::npos) firstTab = pos_;
      width += text_[pos_] == '\t' ? 4 : 1;
      ++pos_;
    }
    if (pos_ >= text_.size() || isLineEnd(text_[pos_]) || text_[pos_] == '#') {
      while (pos_ < text_.size() && !isLineEnd(text_[pos_])) ++pos_;
      skipLineEnd();
      return false;
    }
    // Tabs make the indentation depend on the editor's tab width; only lines with code are checked.
    if (firstTab != std::string_view::npos) {
      diagnostics_.error(span(firstTab, firstTab + 1), "tab character in indentation")
          .hint("indent with spaces only (4 per level)");
    }
    atLineStart_ = false;
    if (width > indents_.back()) {
      indents_.push_back(width);
      add(TokenKind::Indent, begin, pos_);
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        add(TokenKind::Dedent, pos_, pos_);
      }
      if (width != indents_.back()) {
        diagnostics_
            .error(span(begin, pos_),
                   fmt::format("unindent to column {} does not match any outer indentation level (column {})",
                               width + 1, indents_.back() + 1))
            .hint(fmt::format("indent this line by {} spaces", indents_.back()));
      }
    }
    return true;
  }

  // Steps over one line end ("\n", "\r\n" or "\r") at pos_, if there is one.
  void skipLineEnd() {
    if (pos_ < text_.size() && text_[pos_] == '\r') {
      ++pos_;
      if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
    } else if (pos_ < text_.size() && text_[pos_] == '\n') {
      ++pos_;
    }
  }

  void lexToken() {
    char c = text_[pos_];
    if (c == ' ' || c == '\t') {
      ++pos_;
      return;
    }
    if (c == '#') {
      while (pos_ < text_.size() && !isLineEnd(text_[pos_])) ++pos_;
      return;
    }
    if (c == '\\' && pos_ + 1 < text_.size() && isLineEnd(text_[pos_ + 1])) {
      ++pos_;  // explicit line joining
      skipLineEnd();
      return;
    }
    if (isLineEnd(c)) {
      size_t begin = pos_;
      skipLineEnd();
      if (depth_ == 0) {
        add(TokenKind::Newline, begin, pos_, "\\n");
        atLineStart_ = true;
      }
      return;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return lexName();
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])))) {
      return lexNumber();
    }
    if (c == '"' || c == '\'') return lexString();
    for (const Punct& p : kPuncts) {
      if (text_.substr(pos_, p.text.size()) == p.text) {
        if (p.kind == TokenKind::LParen || p.kind == TokenKind::LBracket) ++depth_;
        if ((p.kind == TokenKind::RParen || p.kind == TokenKind::RBracket) && depth_ > 0) --depth_;
        add(p.kind, pos_, pos_ + p.text.size());
        pos_ += p.text.size();
        return;
      }
    }
    unexpectedCharacter();
  }

  // One diagnostic per character, never per byte: a UTF-8 sequence is one character (named by its code point, so
  // the message is readable whatever the terminal), and a byte that starts no valid sequence is one.
  void unexpectedCharacter() {
    size_t n = support::utf8SequenceLength(text_, pos_);
    size_t length = n == 0 ? 1 : n;
    std::string message;
    if (n == 0) {
      message =
          fmt::format("invalid UTF-8 byte 0x{:02X}", static_cast<unsigned>(static_cast<unsigned char>(text_[pos_])));
    } else if (uint32_t cp = codePoint(text_, pos_, n); cp == 0xFEFF) {
      message = "unexpected byte order mark (U+FEFF): only the first bytes of a file may hold one";
    } else if (cp < 0x20 || cp == 0x7F) {
      message = fmt::format("unexpected control character U+{:04X}", cp);
    } else if (n == 1) {
      message = fmt::format("unexpected character '{}'", text_[pos_]);
    } else {
      message =
          fmt::format("unexpected character U+{:04X} '{}' (names and operators are ASCII)", cp, text_.substr(pos_, n));
    }
    diagnostics_.error(span(pos_, pos_ + length), message);
    add(TokenKind::Error, pos_, pos_ + length);
    pos_ += length;
  }

  void lexName() {
    size_t begin = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    std::string_view word = text_.substr(begin, pos_ - begin);
    for (const Keyword& k : kKeywords) {
      if (k.text == word) return add(k.kind, begin, pos_);
    }
    add(TokenKind::Name, begin, pos_);
  }

  void lexNumber() {
    size_t begin = pos_;
    bool isFloat = false;
    auto digits = [&] {
      while (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
    };
    digits();
    if (pos_ < text_.size() && text_[pos_] == '.') {
      isFloat = true;
      ++pos_;
      digits();
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t save = pos_++;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        isFloat = true;
        digits();
      } else {
        pos_ = save;
      }
    }
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      size_t end = pos_;
      while (end < text_.size() && std::isalnum(static_cast<unsigned char>(text_[end]))) ++end;
      diagnostics_.error(span(begin, end), fmt::format("invalid number '{}'", text_.substr(begin, end - begin)));
      add(TokenKind::Error, begin, end);
      pos_ = end;
      return;
    }
    add(isFloat ? TokenKind::Float : TokenKind::Int, begin, pos_);
  }

  // Single, double and triple quotes; no escapes are interpreted (strings are only docstrings and names).
  void lexString() {
    size_t begin = pos_;
    char q = text_[pos_];
    bool triple = text_.substr(pos_, 3) == std::string(3, q);
    std::string_view close = triple ? text_.substr(pos_, 3) : text_.substr(pos_, 1);
    pos_ += close.size();
    size_t contentBegin = pos_;
    while (pos_ < text_.size()) {
      if (text_.substr(pos_, close.size()) == close) {
        std::string content(text_.substr(contentBegin, pos_ - contentBegin));
        pos_ += close.size();
        add(TokenKind::String, begin, pos_, content);
        return;
      }
      if (text_[pos_] == '\\') ++pos_;
      if (!triple && pos_ < text_.size() && isLineEnd(text_[pos_])) break;
      ++pos_;
    }
    diagnostics_.error(span(begin, begin + close.size()), "unterminated string")
        .hint(fmt::format("close it with {}", close));
    add(TokenKind::Error, begin, pos_);
  }

  support::FileId file_;
  std::string_view text_;
  support::DiagnosticEngine& diagnostics_;
  std::vector<Token> tokens_;
  std::vector<size_t> indents_;
  size_t pos_ = 0;
  int depth_ = 0;  // open brackets: newlines inside them are not tokens
  bool atLineStart_ = true;
};

}  // namespace

std::vector<Token> lex(const support::SourceManager& sources, support::FileId file,
                       support::DiagnosticEngine& diagnostics) {
  return Lexer(sources, file, diagnostics).run();
}

std::string printTokens(const support::SourceManager& sources, const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) {
    support::LineCol lc = sources.lineCol(t.span);
    out += fmt::format("{}:{} {}", lc.line, lc.col, tokenKindName(t.kind));
    if (!t.text.empty() && t.kind != TokenKind::Newline) out += fmt::format(" '{}'", t.text);
    out += '\n';
  }
  return out;
}

}  // namespace tilecraft::dsl
