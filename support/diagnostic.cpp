#include "support/diagnostic.h"

#include <fmt/format.h>

#include <algorithm>

namespace tilecraft::support {

const char* severityName(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

DiagnosticEngine::Builder& DiagnosticEngine::Builder::note(Span span, std::string message) {
  if (engine_) engine_->diagnostics_[index_].notes.push_back(DiagnosticNote{span, std::move(message)});
  return *this;
}

DiagnosticEngine::Builder& DiagnosticEngine::Builder::hint(std::string text) {
  if (engine_) engine_->diagnostics_[index_].hint = std::move(text);
  return *this;
}

DiagnosticEngine::Builder DiagnosticEngine::report(Severity severity, Span span, std::string message) {
  if (severity == Severity::Error && limitReached()) return Builder(nullptr, 0);
  for (const Diagnostic& d : diagnostics_) {
    if (d.severity == severity && d.span == span && d.message == message) return Builder(nullptr, 0);
  }
  Diagnostic d;
  d.severity = severity;
  d.span = span;
  d.message = std::move(message);
  diagnostics_.push_back(std::move(d));
  if (severity == Severity::Error) ++errorCount_;
  if (severity == Severity::Warning) ++warningCount_;
  return Builder(this, diagnostics_.size() - 1);
}

namespace {

// Appends "file:line:col: <severity>: message", then the source line with a caret under the span.
void renderLocated(const SourceManager& sources, Span span, const char* severity, const std::string& message,
                   std::string& out) {
  if (!span.valid()) {
    out += fmt::format("{}: {}\n", severity, message);
    return;
  }
  LineCol lc = sources.lineCol(span);
  out += fmt::format("{}:{}:{}: {}: {}\n", sources.name(span.file), lc.line, lc.col, severity, message);
  std::string_view line = sources.lineText(span.file, lc.line);
  out += line;
  out += '\n';
  // The underline stops at the end of the first line of a multi-line span.
  size_t start = lc.col - 1;
  size_t width = std::max<size_t>(1, std::min<size_t>(span.length(), line.size() > start ? line.size() - start : 1));
  out += std::string(start, ' ');
  out += '^';
  out += std::string(width - 1, '~');
  out += '\n';
}

// JSON text is UTF-8: a valid sequence is copied, a byte that starts none (a Latin-1 file name, a stray byte in a
// source line a message quotes) becomes U+FFFD, so a reader's parser never fails on our output.
void appendJsonString(std::string_view text, std::string& out) {
  out += '"';
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      size_t n = utf8SequenceLength(text, i);
      if (n == 0) {
        out += "\\ufffd";
      } else {
        out.append(text.substr(i, n));
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void appendJsonLocation(const SourceManager& sources, Span span, std::string& out) {
  if (!span.valid()) {
    out += "\"file\":null";
    return;
  }
  LineCol begin = sources.lineCol(span);
  LineCol end = sources.lineCol(span.file, span.end);
  out += "\"file\":";
  appendJsonString(sources.name(span.file), out);
  out += fmt::format(",\"line\":{},\"column\":{},\"endLine\":{},\"endColumn\":{}", begin.line, begin.col, end.line,
                     end.col);
}

}  // namespace

std::string renderText(const SourceManager& sources, const Diagnostic& diagnostic) {
  std::string out;
  renderLocated(sources, diagnostic.span, severityName(diagnostic.severity), diagnostic.message, out);
  for (const DiagnosticNote& note : diagnostic.notes) renderLocated(sources, note.span, "note", note.message, out);
  if (!diagnostic.hint.empty()) out += fmt::format("hint: {}\n", diagnostic.hint);
  return out;
}

std::string renderText(const SourceManager& sources, const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += renderText(sources, d);
  return out;
}

std::string renderJson(const SourceManager& sources, const std::vector<Diagnostic>& diagnostics) {
  std::string out = "{\"diagnostics\":[";
  size_t errors = 0;
  size_t warnings = 0;
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    const Diagnostic& d = diagnostics[i];
    if (d.severity == Severity::Error) ++errors;
    if (d.severity == Severity::Warning) ++warnings;
    if (i) out += ',';
    out += "{\"severity\":";
    appendJsonString(severityName(d.severity), out);
    out += ',';
    appendJsonLocation(sources, d.span, out);
    out += ",\"message\":";
    appendJsonString(d.message, out);
    out += ",\"notes\":[";
    for (size_t n = 0; n < d.notes.size(); ++n) {
      if (n) out += ',';
      out += '{';
      appendJsonLocation(sources, d.notes[n].span, out);
      out += ",\"message\":";
      appendJsonString(d.notes[n].message, out);
      out += '}';
    }
    out += "],\"hint\":";
    if (d.hint.empty()) {
      out += "null";
    } else {
      appendJsonString(d.hint, out);
    }
    out += '}';
  }
  out += fmt::format("],\"errors\":{},\"warnings\":{}}}\n", errors, warnings);
  return out;
}

std::string renderSummary(size_t errors, size_t warnings) {
  if (errors == 0 && warnings == 0) return {};
  std::string out;
  if (errors) out += fmt::format("{} error{}", errors, errors == 1 ? "" : "s");
  if (warnings) out += fmt::format("{}{} warning{}", errors ? ", " : "", warnings, warnings == 1 ? "" : "s");
  return out + " generated\n";
}

}  // namespace tilecraft::support
