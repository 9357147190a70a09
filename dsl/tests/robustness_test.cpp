// Every prefix of every example (a program cut anywhere, as an editor or a truncated LLM reply leaves it) must go
// through the front end without crashing, and every diagnostic must point inside the file.
#include <gtest/gtest.h>

#include "dsl/tests/frontend_fixture.h"
#include "support/files.h"

namespace tilecraft::dsl {
namespace {

// The same walk as the mutation fuzzer's (fuzz/seeds.h): support::listFilesRecursively, sorted.
std::vector<std::string> exampleTexts() {
  std::vector<std::string> texts;
  for (const auto& path : support::listFilesRecursively(std::string(TILECRAFT_SOURCE_DIR) + "/examples", ".tile")) {
    texts.push_back(support::readFile(path).value_or(""));
  }
  return texts;
}

TEST(Robustness, EveryPrefixOfEveryExampleIsHandled) {
  std::vector<std::string> texts = exampleTexts();
  ASSERT_GE(texts.size(), 20u);
  size_t runs = 0;
  for (const std::string& text : texts) {
    for (size_t cut = 0; cut <= text.size(); cut += 5) {
      std::string prefix = text.substr(0, cut);
      testing::Frontend f(prefix);
      ++runs;
      for (const auto& d : f.diagnostics.diagnostics()) {
        if (!d.span.valid()) continue;
        EXPECT_LE(d.span.end, prefix.size()) << d.message << "\n--- input ---\n" << prefix;
        EXPECT_LE(d.span.begin, d.span.end) << d.message;
      }
    }
  }
  EXPECT_GT(runs, 1000u);
}

// The same with one line deleted: programs that are almost right are what a repair loop sees most.
TEST(Robustness, DeletingAnyLineKeepsTheFrontEndStable) {
  for (const std::string& text : exampleTexts()) {
    std::vector<size_t> starts{0};
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts.push_back(i + 1);
    }
    for (size_t l = 0; l + 1 < starts.size(); ++l) {
      std::string edited = text.substr(0, starts[l]) + text.substr(starts[l + 1]);
      testing::Frontend f(edited);
      for (const auto& d : f.diagnostics.diagnostics()) {
        if (d.span.valid()) {
          EXPECT_LE(d.span.end, edited.size()) << d.message;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tilecraft::dsl
