#include "project/snippet.h"

#include <cctype>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "project/project_run.h"
#include "support/files.h"

namespace tilecraft::project {
namespace {

namespace fs = std::filesystem;

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// A token of the snippet's top level: enough of Python's lexical grammar to find `NAME = "..." "..."` statements
// and to step over everything else (other strings, comments, brackets) without being fooled by it.
struct Token {
  enum Kind { Name, String, Op, End } kind = End;
  std::string text;  // a name, an operator, a string's prefix letters
  int line = 1, column = 1;
  SnippetString value;  // a string
  bool literal = true;  // false for f-strings and bytes, which are not plain text
};

class Lexer {
 public:
  Lexer(const std::string& path, const std::string& text, std::vector<std::string>& errors)
      : path_(path), text_(text), errors_(errors) {}

  // The tokens of one logical line (a statement), or an empty list at the end.
  std::vector<Token> statement() {
    std::vector<Token> tokens;
    int depth = 0;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '\n') {
        advance();
        if (depth == 0 && !tokens.empty()) return tokens;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        advance();
        continue;
      }
      if (c == ';' && depth == 0) {
        advance();
        if (!tokens.empty()) return tokens;
        continue;
      }
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') advance();
        continue;
      }
      if (c == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {  // an explicit line join
        advance();
        advance();
        continue;
      }
      Token t;
      t.line = line_;
      t.column = column_;
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80) {
        size_t from = pos_;
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                       static_cast<unsigned char>(text_[pos_]) >= 0x80))
          advance();
        t.text = text_.substr(from, pos_ - from);
        if (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\'') && isPrefix(t.text)) {
          if (!readString(t)) return {};
        } else {
          t.kind = Token::Name;
        }
      } else if (c == '"' || c == '\'') {
        if (!readString(t)) return {};
      } else {
        t.kind = Token::Op;
        t.text = std::string(1, c);
        if (c == '(' || c == '[' || c == '{') ++depth;
        if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
        advance();
      }
      tokens.push_back(std::move(t));
    }
    return tokens;
  }

  bool failed() const { return failed_; }

 private:
  static bool isPrefix(std::string p) {
    for (char& ch : p) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return p == "r" || p == "u" || p == "b" || p == "f" || p == "br" || p == "rb" || p == "fr" || p == "rf";
  }

  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  void error(int line, int column, const std::string& what) {
    errors_.push_back(fmt::format("{}:{}:{}: error: {}", path_, line, column, what));
    failed_ = true;
  }

  // The literal at pos_ (its prefix, if any, already read into t.text), decoded into t.value.
  bool readString(Token& t) {
    t.kind = Token::String;
    std::string prefix = t.text;
    for (char& ch : prefix) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    bool raw = prefix.find('r') != std::string::npos;
    t.literal = prefix.find('f') == std::string::npos && prefix.find('b') == std::string::npos;
    char quote = text_[pos_];
    bool triple = text_.compare(pos_, 3, std::string(3, quote)) == 0;
    for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
    SnippetString& v = t.value;
    v.lines.push_back(line_);
    v.columns.push_back(column_);
    auto newline = [&](int line, int column) {
      v.value += '\n';
      v.lines.push_back(line);
      v.columns.push_back(column);
    };
    while (true) {
      if (pos_ >= text_.size() || (!triple && text_[pos_] == '\n')) {
        error(t.line, t.column,
              triple ? "this string is not closed (no closing triple quote before the end of the file)"
                     : "this string is not closed on its line");
        return false;
      }
      char c = text_[pos_];
      if (c == quote && (!triple || text_.compare(pos_, 3, std::string(3, quote)) == 0)) {
        for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
        return true;
      }
      if (c == '\n') {
        advance();
        newline(line_, column_);
        continue;
      }
      if (c != '\\' || pos_ + 1 >= text_.size()) {
        v.value += c;
        advance();
        continue;
      }
      char e = text_[pos_ + 1];
      if (raw) {  // a raw string keeps the backslash; it only stops the next character ending the string
        v.value += c;
        advance();
        if (e == '\n') {
          advance();
          newline(line_, column_);
        } else {
          v.value += e;
          advance();
        }
        continue;
      }
      advance();
      advance();
      switch (e) {
        case '\n': break;  // a line continuation inside the string: no newline in the value
        case '\\': v.value += '\\'; break;
        case '\'': v.value += '\''; break;
        case '"': v.value += '"'; break;
        case 'a': v.value += '\a'; break;
        case 'b': v.value += '\b'; break;
        case 'f': v.value += '\f'; break;
        case 'n': newline(line_, column_); break;
        case 'r': v.value += '\r'; break;
        case 't': v.value += '\t'; break;
        case 'v': v.value += '\v'; break;
        case 'x':
        case 'u':
        case 'U': {
          size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          uint32_t cp = 0;
          for (size_t i = 0; i < digits; ++i) {
            if (pos_ >= text_.size() || !std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
              error(line_, column_ - 2 - static_cast<int>(i),
                    fmt::format("truncated \\{} escape: it takes {} hex digits", e, digits));
              return false;
            }
            char h = text_[pos_];
            cp = cp * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(h))
                                                     ? h - '0'
                                                     : std::tolower(static_cast<unsigned char>(h)) - 'a' + 10);
            advance();
          }
          if (e == 'x') {
            v.value += static_cast<char>(cp);
          } else {
            appendUtf8(v.value, cp);
          }
          break;
        }
        default:
          if (e >= '0' && e <= '7') {  // up to three octal digits
            uint32_t cp = static_cast<uint32_t>(e - '0');
            for (int i = 0; i < 2 && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '7'; ++i) {
              cp = cp * 8 + static_cast<uint32_t>(text_[pos_] - '0');
              advance();
            }
            v.value += static_cast<char>(cp);
          } else {  // Python keeps an unknown escape as it is written
            v.value += '\\';
            v.value += e;
            if (e == '\n') newline(line_, column_);
          }
      }
    }
  }

  const std::string& path_;
  const std::string& text_;
  std::vector<std::string>& errors_;
  size_t pos_ = 0;
  int line_ = 1, column_ = 1;
  bool failed_ = false;
};

// `a = "x" "y"`, `a = ("x"\n "y")`: the string, or nullptr when the right-hand side is anything else.
bool stringValue(const std::vector<Token>& tokens, SnippetString& out, const Token*& notLiteral) {
  size_t from = 2, to = tokens.size();
  while (from < to && tokens[from].kind == Token::Op && tokens[from].text == "(" && tokens[to - 1].kind == Token::Op &&
         tokens[to - 1].text == ")") {
    ++from;
    --to;
  }
  if (from == to) return false;
  out = SnippetString();
  for (size_t i = from; i < to; ++i) {
    if (tokens[i].kind != Token::String) return false;
    if (!tokens[i].literal) {
      notLiteral = &tokens[i];
      return false;
    }
    const SnippetString& part = tokens[i].value;
    if (out.lines.empty()) {
      out = part;
      continue;
    }
    // Adjacent literals join: the first line of this one continues the last line so far.
    out.value += part.value;
    out.lines.insert(out.lines.end(), part.lines.begin() + 1, part.lines.end());
    out.columns.insert(out.columns.end(), part.columns.begin() + 1, part.columns.end());
  }
  return true;
}

bool isKnownName(const std::string& name) {
  for (const char* n :
       {"project_json_src", "host_tiling_src", "host_operator_src", "kernel_src", "python_bind_src", "model_src"}) {
    if (name == n) return true;
  }
  return false;
}

// The operator's type from the op description: msopgen's JSON is a list of one operator object.
bool operatorType(const std::string& path, const SnippetString& json, std::string& op, std::string& error) {
  std::string where = fmt::format("{}:{}:{}", path, json.lines.front(), json.columns.front());
  nlohmann::json doc = nlohmann::json::parse(json.value, nullptr, false);
  if (doc.is_discarded()) {
    error = fmt::format(
        "{}: error: project_json_src is not JSON\nhint: it is msopgen's operator description, a list "
        "of one object with \"op\", \"input_desc\" and \"output_desc\"",
        where);
    return false;
  }
  if (doc.is_array()) {
    if (doc.size() != 1) {
      error =
          fmt::format("{}: error: project_json_src describes {} operators; a project here has one", where, doc.size());
      return false;
    }
    doc = doc.front();
  }
  if (!doc.is_object() || !doc.contains("op") || !doc["op"].is_string() || doc["op"].get<std::string>().empty()) {
    error = fmt::format(
        "{}: error: project_json_src has no \"op\" name\nhint: msopgen names the operator by it "
        "(\"op\": \"AddCustom\" gives add_custom.cpp and the kernel entry add_custom)",
        where);
    return false;
  }
  op = doc["op"].get<std::string>();
  for (char c : op) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      error = fmt::format("{}: error: the operator name '{}' is not an identifier", where, op);
      return false;
    }
  }
  return true;
}

}  // namespace

bool readSnippetStrings(const std::string& path, const std::string& text, std::map<std::string, SnippetString>& out,
                        std::vector<std::string>& errors) {
  Lexer lexer(path, text, errors);
  while (true) {
    std::vector<Token> tokens = lexer.statement();
    if (lexer.failed()) return false;
    if (tokens.empty()) break;
    if (tokens.size() < 3 || tokens[0].kind != Token::Name || tokens[1].kind != Token::Op || tokens[1].text != "=")
      continue;
    SnippetString value;
    const Token* notLiteral = nullptr;
    if (stringValue(tokens, value, notLiteral)) {
      out[tokens[0].text] = std::move(value);
    } else if (isKnownName(tokens[0].text)) {
      const Token& at = notLiteral != nullptr ? *notLiteral : tokens[2];
      errors.push_back(fmt::format(
          "{}:{}:{}: error: {} is not a plain string literal\nhint: the submission is read without being run: "
          "write each source as a string literal (\"\"\"...\"\"\" or '''...'''), not an f-string, bytes or an "
          "expression",
          path, at.line, at.column, tokens[0].text));
      out.erase(tokens[0].text);
    }
  }
  return errors.empty();
}

std::string mapSourceLines(std::string text, const std::vector<SourceMap>& maps) {
  for (const SourceMap& map : maps) {
    std::string key = map.file + ":";
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
      size_t p = at + key.size();
      size_t lineEnd = p;
      while (lineEnd < text.size() && std::isdigit(static_cast<unsigned char>(text[lineEnd]))) ++lineEnd;
      if (lineEnd == p) continue;
      size_t line = std::stoul(text.substr(p, lineEnd - p));
      if (line == 0 || line > map.lines.size()) continue;
      std::string replacement = fmt::format("{}:{}", map.source, map.lines[line - 1]);
      size_t end = lineEnd;
      if (end + 1 < text.size() && text[end] == ':' && std::isdigit(static_cast<unsigned char>(text[end + 1]))) {
        size_t colEnd = end + 1;
        while (colEnd < text.size() && std::isdigit(static_cast<unsigned char>(text[colEnd]))) ++colEnd;
        int column = std::stoi(text.substr(end + 1, colEnd - end - 1)) + map.columns[line - 1] - 1;
        replacement += fmt::format(":{}", column);
        end = colEnd;
      }
      text.replace(at, end - at, replacement);
    }
  }
  return text;
}

bool isSnippetPath(const std::string& path) { return fs::path(path).extension() == ".py"; }

namespace {

// Where each of the six strings lives in msopgen's project of operator `name` (snake case), in the snippet's
// order; `mapped` for the C++ sources, whose messages are mapped back to the snippet.
struct ProjectFile {
  const char* string;
  fs::path file;
  bool required, mapped;
};

std::vector<ProjectFile> projectFiles(const std::string& name) {
  return {
      {"project_json_src", name + ".json", true, false},
      {"host_tiling_src", fs::path("op_host") / (name + "_tiling.h"), true, true},
      {"host_operator_src", fs::path("op_host") / (name + ".cpp"), true, true},
      {"kernel_src", fs::path("op_kernel") / (name + ".cpp"), true, true},
      {"python_bind_src", fs::path("CppExtension") / "csrc" / "op.cpp", false, false},
      {"model_src", "model_new.py", false, false},
  };
}

std::string joinErrors(const std::vector<std::string>& errors) {
  std::string out;
  for (const std::string& e : errors) out += (out.empty() ? "" : "\n") + e;
  return out;
}

}  // namespace

bool readSubmission(const std::string& path, const std::string& text, Submission& out, std::string& error) {
  out = Submission();
  std::vector<std::string> errors;
  readSnippetStrings(path, text, out.strings, errors);
  std::string missing;
  for (const ProjectFile& f : projectFiles("")) {
    if (f.required && out.strings.count(f.string) == 0)
      missing += (missing.empty() ? "" : ", ") + std::string(f.string);
  }
  if (errors.empty() && !missing.empty()) {  // after an error, what is missing may only be unread
    errors.push_back(fmt::format(
        "{}: error: the submission defines no {}\nhint: a MultiKernelBench AscendC submission defines six strings: "
        "project_json_src, host_tiling_src, host_operator_src, kernel_src, python_bind_src, model_src",
        path, missing));
  }
  if (!errors.empty()) {
    error = joinErrors(errors);
    return false;
  }
  std::string op;
  if (!operatorType(path, out.strings.at("project_json_src"), op, error)) return false;
  out.name = kernelEntryName(op);
  return true;
}

bool unpackSnippet(const std::string& path, const fs::path& dir, std::vector<SourceMap>& maps, std::string& error) {
  std::optional<std::string> text = support::readFile(path);
  std::error_code ec;
  if (!text || fs::is_directory(path, ec)) {
    error = fmt::format("error: {}: cannot read the submission", path);
    return false;
  }
  Submission submission;
  if (!readSubmission(path, *text, submission, error)) return false;
  fs::path root = fs::absolute(dir, ec).lexically_normal();
  for (const char* sub : {"op_host", "op_kernel"}) fs::remove_all(root / sub, ec);
  fs::create_directories(root / "op_host", ec);
  fs::create_directories(root / "op_kernel", ec);
  if (ec) {
    error = fmt::format("error: {}: cannot create the project folder: {}", dir.string(), ec.message());
    return false;
  }
  maps.clear();
  for (const ProjectFile& f : projectFiles(submission.name)) {
    auto found = submission.strings.find(f.string);
    if (found == submission.strings.end()) continue;
    fs::path file = root / f.file;
    fs::create_directories(file.parent_path(), ec);
    if (!support::writeFileAtomically(file, found->second.value, &error)) {
      error = "error: " + error;
      return false;
    }
    if (f.mapped) maps.push_back({file.string(), path, found->second.lines, found->second.columns});
  }
  return true;
}

bool packSubmission(const fs::path& dir, std::string& text, std::string& error) {
  std::error_code ec;
  std::vector<fs::path> descriptions;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") descriptions.push_back(entry.path());
  }
  if (descriptions.size() != 1) {
    error = fmt::format(
        "error: {}: {} op description (.json) files; a project to pack has one, msopgen's (its \"op\" names the "
        "sources)",
        dir.string(), descriptions.size());
    return false;
  }
  SnippetString desc;
  desc.value = support::readFile(descriptions.front()).value_or("");
  desc.lines = {1};
  desc.columns = {1};
  std::string op;
  if (!operatorType(descriptions.front().string(), desc, op, error)) return false;
  text = fmt::format("# MultiKernelBench's six strings of the CANN project {} (tilecraft project pack).\n", op);
  for (const ProjectFile& f : projectFiles(kernelEntryName(op))) {
    std::optional<std::string> value = support::readFile(dir / f.file);
    if (!value) {
      if (!f.required) continue;
      error = fmt::format("error: {}: no {} (the {} of operator {})", dir.string(), f.file.string(), f.string, op);
      return false;
    }
    // A raw literal keeps the text byte for byte if it holds none of its quotes and ends in neither a backslash
    // nor its quote character.
    std::string quote = value->find(R"(""")") == std::string::npos ? R"(""")" : "'''";
    bool endsBadly = !value->empty() && (value->back() == '\\' || value->back() == quote[0]);
    if (value->find(quote) != std::string::npos || endsBadly) {
      error = fmt::format(
          "error: {}: cannot be written as a Python raw string literal (it holds both kinds of triple quote, or "
          "ends in a backslash or a quote)",
          (dir / f.file).string());
      return false;
    }
    text += fmt::format("\n{} = r{}{}{}\n", f.string, quote, *value, quote);
  }
  return true;
}

}  // namespace tilecraft::project
