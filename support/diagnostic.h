// User diagnostics: what a front end reports about the user's program, built for repair by a person or an LLM.
// A diagnostic has a severity, a primary span, a message with the numbers involved, notes pointing at related
// source, and a hint with the concrete fix. Internal bugs are asserts, never diagnostics.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "support/source.h"

namespace tilecraft::support {

enum class Severity { Error, Warning, Note };

const char* severityName(Severity severity);

struct DiagnosticNote {
  Span span;  // may be invalid: the note then has no location
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  Span span;
  std::string message;  // lowercase start, no trailing period, numbers included
  std::vector<DiagnosticNote> notes;
  std::string hint;  // empty when there is no concrete fix to suggest
};

/// Collects many diagnostics per run. Identical reports (same severity, span and message) are kept once, so a
/// checker that revisits a node cannot produce cascades of duplicates.
class DiagnosticEngine {
 public:
  /// Adds notes and a hint to the diagnostic just reported.
  class Builder {
   public:
    Builder(DiagnosticEngine* engine, size_t index) : engine_(engine), index_(index) {}
    Builder& note(Span span, std::string message);
    Builder& hint(std::string text);

   private:
    DiagnosticEngine* engine_;  // null when the report was dropped (duplicate or over the limit)
    size_t index_;
  };

  explicit DiagnosticEngine(size_t maxErrors = 100) : maxErrors_(maxErrors) {}

  Builder error(Span span, std::string message) { return report(Severity::Error, span, std::move(message)); }
  Builder warning(Span span, std::string message) { return report(Severity::Warning, span, std::move(message)); }
  Builder report(Severity severity, Span span, std::string message);

  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  size_t errorCount() const { return errorCount_; }
  size_t warningCount() const { return warningCount_; }
  bool hasErrors() const { return errorCount_ > 0; }
  /// True once maxErrors errors were reported; later errors are dropped.
  bool limitReached() const { return errorCount_ >= maxErrors_; }

 private:
  std::vector<Diagnostic> diagnostics_;
  size_t errorCount_ = 0;
  size_t warningCount_ = 0;
  size_t maxErrors_;
};

/// `file:line:col: error: message`, the source line, a caret with `~` under the rest of the span, then each
/// note the same way, then `hint: ...`. Diagnostics are printed in the order they were reported.
std::string renderText(const SourceManager& sources, const Diagnostic& diagnostic);
std::string renderText(const SourceManager& sources, const std::vector<Diagnostic>& diagnostics);

/// One JSON object: {"diagnostics": [...], "errors": N, "warnings": M}; every location has file, line, column,
/// endLine and endColumn (1-based, end exclusive) so a tool can patch the source.
std::string renderJson(const SourceManager& sources, const std::vector<Diagnostic>& diagnostics);

/// "3 errors, 1 warning generated" style summary; empty when there is nothing to report.
std::string renderSummary(size_t errors, size_t warnings);

}  // namespace tilecraft::support
