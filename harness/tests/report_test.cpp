#include "harness/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <sstream>

#include "harness/chartjs_bundle.h"
#include "harness/report_tables.h"
#include "harness/tests/report_fixture.h"

namespace tilecraft::harness {
namespace {

using testing::fixtureSummary;
using testing::kHostileTask;

ReportInfo info() { return {"tilecraft bench --smoke tasks/", "tasks/", "solutions/", "cann", "910b2"}; }

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The lines of the titled section, up to the blank line that ends it.
std::vector<std::string> section(const std::string& text, const std::string& title) {
  std::vector<std::string> all = lines(text), out;
  auto it = std::find(all.begin(), all.end(), title);
  EXPECT_NE(it, all.end()) << title;
  for (++it; it != all.end() && !it->empty(); ++it) out.push_back(*it);
  return out;
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = 0; (at = text.find(needle, at)) != std::string::npos; at += needle.size()) ++n;
  return n;
}

TEST(ReportTable, OverallRowHasEveryFigure) {
  std::string text = renderTable(fixtureSummary(), info());
  EXPECT_EQ(lines(text)[0], "tilecraft bench --smoke tasks/");
  EXPECT_EQ(lines(text)[1], "suite: tasks/  solutions: solutions/  rule: cann  arch: 910b2");
  std::vector<std::string> overall = section(text, "Overall");
  ASSERT_EQ(overall.size(), 3u);
  EXPECT_EQ(overall[0],
            "  scope  tasks  cases  samples  Comp@1  Pass@1  fast_0  fast_0.8  fast_1  fast_2  speedup  "
            "limit score  CANN score");
  EXPECT_EQ(overall[2],
            "  all        3      5        5   66.7%   33.3%   60.0%     60.0%   40.0%    0.0%    1.14x       "
            " 0.432        41.2");
}

TEST(ReportTable, ColumnsAlignInEveryTable) {
  std::string text = renderTable(fixtureSummary(), info());
  // In the tasks table every row's figures end where the header's "correct" ends.
  std::vector<std::string> tasks = section(text, "Tasks");
  ASSERT_EQ(tasks.size(), 5u);
  size_t end = tasks[0].find("correct") + std::string("correct").size();
  for (size_t i = 2; i < tasks.size(); ++i) {
    EXPECT_EQ(tasks[i][end - 1] != ' ' && (end == tasks[i].size() || tasks[i][end] == ' '), true) << tasks[i];
  }
  EXPECT_NE(tasks[3].find(kHostileTask), std::string::npos) << "the terminal shows names as they are";
  std::vector<std::string> levels = section(text, "By level");
  ASSERT_EQ(levels.size(), 4u);
  EXPECT_EQ(levels[2].substr(0, 9), "  level 1");
  EXPECT_EQ(levels[3].substr(0, 9), "  level 2");
  EXPECT_EQ(levels[2].size(), levels[0].size());
}

TEST(ReportTable, FailureTaxonomyInReportOrderWithShares) {
  std::vector<std::string> failures = section(renderTable(fixtureSummary(), info()), "Failures");
  ASSERT_EQ(failures.size(), 4u);
  EXPECT_EQ(failures[2], "  syntax               1          20.0%");
  EXPECT_EQ(failures[3], "  numeric_mismatch     1          20.0%");
}

TEST(ReportTable, CompAtKAndPassAtKColumnsForEverySampleCount) {
  Summary s = fixtureSummary();
  s.overall.compAtK = {{1, 0.5}, {5, 0.875}};
  s.overall.passAtK = {{1, 0.5}, {2, 0.75}, {4, 1.0}};
  s.byLevel[1].passAtK = {{1, 0.5}, {2, 0.75}};
  std::string text = renderTable(s, info());
  std::vector<std::string> overall = section(text, "Overall");
  EXPECT_NE(overall[0].find("Comp@1  Comp@5  Pass@1  Pass@2  Pass@4"), std::string::npos) << overall[0];
  EXPECT_NE(overall[2].find("66.7%   87.5%   33.3%"), std::string::npos) << overall[2];
  EXPECT_NE(overall[2].find("75.0%  100.0%"), std::string::npos) << overall[2];
  // A scope without Pass@4 (fewer samples) shows "-".
  EXPECT_NE(section(text, "By level")[2].find("75.0%       -"), std::string::npos);
}

TEST(ReportTable, EmptySummarySaysNone) {
  std::string text = renderTable(Summary{}, ReportInfo{});
  EXPECT_EQ(section(text, "Tasks"), std::vector<std::string>{"  (none)"});
  EXPECT_EQ(section(text, "Failures"), std::vector<std::string>{"  (none)"});
  EXPECT_NE(text.find("    0      0        0    0.0%    0.0%"), std::string::npos) << text;
}

TEST(ReportFormat, FiguresThatDoNotExistPrintAsDash) {
  EXPECT_EQ(report_detail::formatSpeedup(0), "-");
  EXPECT_EQ(report_detail::formatSpeedup(1.005), "1.00x");  // binary 1.005 is below the half
  EXPECT_EQ(report_detail::formatRate(std::nan("")), "-");
  EXPECT_EQ(report_detail::formatScore(-0.0001), "0.000");
  EXPECT_EQ(report_detail::formatMicros(3.14159), "3.14");
  EXPECT_EQ(report_detail::formatMicros(31.4159), "31.4");
  EXPECT_EQ(report_detail::clip("a\nb", 10), "a b");
  EXPECT_EQ(report_detail::clip("\xc3\xa9t\xc3\xa9!", 3), "\xc3\xa9t\xc3\xa9...");
}

TEST(ReportMarkdown, TablesWithAlignmentAndEscapedNames) {
  std::string md = renderMarkdown(fixtureSummary(), info());
  std::vector<std::string> all = lines(md);
  EXPECT_EQ(all[0], "# tilecraft bench --smoke tasks/");
  EXPECT_EQ(all[2], "suite: tasks/  solutions: solutions/  rule: cann  arch: 910b2");
  EXPECT_EQ(all[4], "## Overall");
  EXPECT_EQ(all[7], "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  EXPECT_EQ(all[8], "| all | 3 | 5 | 5 | 66.7% | 33.3% | 60.0% | 60.0% | 40.0% | 0.0% | 1.14x | 0.432 | 41.2 |");
  EXPECT_NE(md.find("| evil\\</script\\>\\<script\\>document.title='pwned'\\</script\\>\"'\\& | 1 | math |"),
            std::string::npos)
      << md;
  for (size_t at = md.find('<'); at != std::string::npos; at = md.find('<', at + 1)) {
    EXPECT_EQ(md[at - 1], '\\') << "unescaped '<' at " << at;
  }
  EXPECT_EQ(md.back(), '\n');
  EXPECT_NE(md.substr(md.size() - 2), "\n\n");
}

TEST(ReportMarkdown, PipesInNamesDoNotSplitCells) {
  Summary s = fixtureSummary();
  s.tasks[0].task = "a|b";
  s.tasks[0].firstFailure = "line one\nline two";
  std::string md = renderMarkdown(s, info());
  EXPECT_NE(md.find("| a\\|b | 1 | math | 2 | 2 | 2 | 1.73x | - | 0.610 | 68.8 | line one line two |"),
            std::string::npos)
      << md;
}

TEST(ReportHtml, SelfContainedWithTheBundleInlined) {
  std::string html = renderHtml(fixtureSummary(), info());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find(std::string(chartJsSource().substr(0, 200))), std::string::npos);
  EXPECT_GT(chartJsSource().size(), 100000u);
  EXPECT_EQ(chartJsSource().find("</script"), std::string::npos);
  EXPECT_NE(chartJsSource().find("Chart.js v" + std::string(chartJsVersion())), std::string::npos);
  EXPECT_EQ(std::regex_search(html, std::regex("<(script|link|img)[^>]*(src|href)=")), false);
  for (const char* id : {"chart-speedup", "chart-limit", "chart-failures", "chart-pipes"}) {
    EXPECT_EQ(count(html, std::string("<canvas id=\"") + id + "\""), 1u) << id;
  }
}

TEST(ReportHtml, HostileNamesCannotCloseTheScriptOrMarkup) {
  std::string html = renderHtml(fixtureSummary(), info());
  // Three <script> elements (data, Chart.js, the page's): a name adds none and closes none.
  EXPECT_EQ(count(html, "<script"), 3u);
  EXPECT_EQ(count(html, "</script>"), 3u);
  EXPECT_NE(html.find("<td>evil&lt;/script&gt;&lt;script&gt;document.title=&#39;pwned&#39;&lt;/"
                      "script&gt;&quot;&#39;&amp;</td>"),
            std::string::npos);
  EXPECT_NE(html.find("\"name\":\"evil\\u003c/script\\u003e\\u003cscript\\u003edocument.title='pwned'"),
            std::string::npos);
}

TEST(ReportHtml, ChartDataFromTheSummary) {
  std::string html = renderHtml(fixtureSummary(), info());
  EXPECT_NE(html.find("{\"cases\":2,\"correct\":2,\"limitScore\":0.61,\"name\":\"add\",\"speedup\":1.7321}"),
            std::string::npos);
  EXPECT_NE(html.find("\"failures\":[{\"name\":\"syntax\",\"rows\":1},{\"name\":\"numeric_mismatch\",\"rows\":1}]"),
            std::string::npos);
  // Pipes in data-flow order; per task the mean over its rows with a timeline (add: sim 10 and 20 us).
  EXPECT_NE(html.find("\"pipeTasks\":[\"add\",\"softmax\"],\"pipes\":[{\"pipe\":\"MTE2\",\"us\":[12.0,36.0]},"
                      "{\"pipe\":\"V\",\"us\":[7.5,22.5]},{\"pipe\":\"MTE3\",\"us\":[3.0,9.0]},"
                      "{\"pipe\":\"S\",\"us\":[0.1,0.1]}]"),
            std::string::npos)
      << html.substr(html.find("report-data"), 800);
}

TEST(ReportHtml, InvalidUtf8InAMessageIsReplacedNotFatal) {
  Summary s = fixtureSummary();
  s.tasks[0].task = "bad\xff";
  std::string html = renderHtml(s, info());
  EXPECT_NE(html.find("bad\\ufffd"), std::string::npos);
}

TEST(Reports, DeterministicAndFreeOfWallTime) {
  Summary a = fixtureSummary(), b = fixtureSummary();
  for (Record& r : b.rows) r.wallSeconds = 123.25;
  EXPECT_EQ(renderTable(a, info()), renderTable(b, info()));
  EXPECT_EQ(renderMarkdown(a, info()), renderMarkdown(b, info()));
  EXPECT_EQ(renderHtml(a, info()), renderHtml(b, info()));
}

}  // namespace
}  // namespace tilecraft::harness
