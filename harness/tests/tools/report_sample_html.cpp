// Writes the HTML report of the test fixture to OUT.html, for the headless-browser test
// (harness/tests/report_html_chromium.sh). With --without-chart-library the inlined Chart.js is cut out, so
// the test can show that its check fails on a page whose charts did not draw.
#include <fstream>
#include <iostream>
#include <string>

#include "harness/report.h"
#include "harness/tests/report_fixture.h"

int main(int argc, char** argv) {
  bool broken = argc == 3 && std::string(argv[2]) == "--without-chart-library";
  if (argc != 2 && !broken) {
    std::cerr << "usage: report_sample_html OUT.html [--without-chart-library]\n";
    return 2;
  }
  tilecraft::harness::ReportInfo info{"tilecraft bench --smoke \"tasks\" <x>", "tasks", "solutions", "cann", "910b2"};
  std::string html = tilecraft::harness::renderHtml(tilecraft::harness::testing::fixtureSummary(), info);
  if (broken) {
    size_t begin = html.find("<script>\n/*!");
    size_t end = html.find("</script>", begin);
    if (begin == std::string::npos || end == std::string::npos) {
      std::cerr << "report_sample_html: the Chart.js element was not found\n";
      return 1;
    }
    html.erase(begin, end + 9 - begin);
  }
  std::ofstream out(argv[1], std::ios::binary);
  out << html;
  return out.good() ? 0 : 1;
}
