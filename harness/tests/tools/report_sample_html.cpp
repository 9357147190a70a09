// Writes the HTML report of the test fixture to argv[1], for the headless-browser test
// (harness/tests/report_html_chromium.sh).
#include <fstream>
#include <iostream>

#include "harness/report.h"
#include "harness/tests/report_fixture.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: report_sample_html OUT.html\n";
    return 2;
  }
  tilecraft::harness::ReportInfo info{"tilecraft bench --smoke \"tasks\" <x>", "tasks", "solutions", "cann", "910b2"};
  std::ofstream out(argv[1], std::ios::binary);
  out << tilecraft::harness::renderHtml(tilecraft::harness::testing::fixtureSummary(), info);
  return out.good() ? 0 : 1;
}
