// The HTML report: one self-contained file (styles, data, the pinned Chart.js and the page's script all
// inline) that works offline. Tables are rendered here, charts in the browser from a JSON island.
//
// Everything from a task folder (names, categories, messages) is untrusted text: HTML text is entity-escaped
// and the JSON island escapes '<', '>' and '&' so no value can close the <script> element it sits in.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/chartjs_bundle.h"
#include "harness/report.h"
#include "harness/report_tables.h"

namespace tilecraft::harness {
namespace {

using report_detail::Table;

// The pipes in the order data flows through a core; pipes the model adds later follow by name.
const char* const kPipeOrder[] = {"MTE2", "MTE1", "M", "FIX", "V", "MTE3", "S"};

std::string htmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

// JSON that is safe inside <script>: ASCII only (U+2028/2029 escaped too), invalid UTF-8 replaced, and the
// characters that could end the element or start a comment written as \u escapes.
std::string scriptJson(const nlohmann::json& j) {
  std::string text = j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default: out += c;
    }
  }
  return out;
}

// A script body may not contain "</script" in any case: the pinned bundle holds none, and one it gained would
// be in a string or regex, where "<\/" means the same.
std::string inlineScript(std::string_view source) {
  std::string out(source);
  for (size_t at = 0; (at = out.find("</", at)) != std::string::npos; at += 2) {
    std::string word = out.substr(at + 2, 6);
    std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return std::tolower(c); });
    if (word == "script") out.insert(at + 1, 1, '\\');
  }
  return out;
}

nlohmann::json figure(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(0); }

std::vector<std::string> orderedPipes(const std::vector<Record>& rows) {
  std::set<std::string> seen;
  for (const Record& r : rows) {
    for (const auto& [pipe, us] : r.pipeBusyUs) seen.insert(pipe);
  }
  std::vector<std::string> pipes;
  for (const char* pipe : kPipeOrder) {
    if (seen.erase(pipe)) pipes.emplace_back(pipe);
  }
  pipes.insert(pipes.end(), seen.begin(), seen.end());
  return pipes;
}

nlohmann::json chartData(const Summary& s) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const TaskScore& t : s.tasks) {
    tasks.push_back({{"name", t.task},
                     {"speedup", figure(t.geomeanSpeedup)},
                     {"limitScore", figure(t.limitScore)},
                     {"correct", t.correct},
                     {"cases", t.cases}});
  }
  nlohmann::json failures = nlohmann::json::array();
  for (const auto& [name, count] : report_detail::orderedFailures(s.overall.failures)) {
    failures.push_back({{"name", name}, {"rows", count}});
  }
  // Per task, each pipe's busy time averaged over the task's rows that have a timeline.
  std::vector<std::string> pipes = orderedPipes(s.rows);
  std::map<std::string, std::pair<int, std::map<std::string, double>>> perTask;
  for (const Record& r : s.rows) {
    if (r.pipeBusyUs.empty()) continue;
    auto& [count, sums] = perTask[r.task];
    ++count;
    for (const auto& [pipe, us] : r.pipeBusyUs) sums[pipe] += std::isfinite(us) ? us : 0;
  }
  nlohmann::json pipeTasks = nlohmann::json::array();
  nlohmann::json pipeSeries = nlohmann::json::array();
  for (const std::string& pipe : pipes) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& [task, entry] : perTask) {
      auto it = entry.second.find(pipe);
      values.push_back(it == entry.second.end() ? 0.0 : it->second / entry.first);
    }
    pipeSeries.push_back({{"pipe", pipe}, {"us", values}});
  }
  for (const auto& [task, entry] : perTask) pipeTasks.push_back(task);
  return {{"tasks", tasks}, {"failures", failures}, {"pipeTasks", pipeTasks}, {"pipes", pipeSeries}};
}

void appendTable(std::string& out, const Table& t, const char* id) {
  out += fmt::format("<section id=\"{}\"><h2>{}</h2>\n", id, htmlEscape(t.title));
  if (t.rows.empty()) {
    out += "<p class=\"none\">(none)</p></section>\n";
    return;
  }
  out += "<table><thead><tr>";
  for (size_t c = 0; c < t.header.size(); ++c) {
    out += fmt::format("<th{}>{}</th>", t.numeric[c] ? " class=\"num\"" : "", htmlEscape(t.header[c]));
  }
  out += "</tr></thead><tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (size_t c = 0; c < row.size(); ++c) {
      out += fmt::format("<td{}>{}</td>", t.numeric[c] ? " class=\"num\"" : "", htmlEscape(row[c]));
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></section>\n";
}

// Every row, for finding one case: what it was, how it ended and its figures.
void appendRows(std::string& out, const std::vector<Record>& rows) {
  out += "<section id=\"rows\"><h2>Rows</h2>\n";
  if (rows.empty()) {
    out += "<p class=\"none\">(none)</p></section>\n";
    return;
  }
  out +=
      "<table><thead><tr><th>task</th><th>case</th><th "
      "class=\"num\">sample</th><th>solution</th><th>result</th>"
      "<th class=\"num\">sim us</th><th class=\"num\">eager us</th><th class=\"num\">limit us</th>"
      "<th class=\"num\">speedup</th><th>bottleneck</th><th>message</th></tr></thead><tbody>\n";
  for (const Record& r : rows) {
    std::string result = r.correct ? "pass" : failureName(r.failure);
    double speedup = r.correct && r.simUs > 0 && r.eagerUs > 0 ? r.eagerUs / r.simUs : 0;
    std::string solution = r.solutionKind;
    if (!r.instantiation.empty()) solution += " " + r.instantiation;
    out += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td>{}</td><td>{}</td></tr>\n",
        r.correct ? "pass" : "fail", htmlEscape(r.task), htmlEscape(r.caseId), r.sample, htmlEscape(solution),
        htmlEscape(result), report_detail::formatMicros(r.simUs), report_detail::formatMicros(r.eagerUs),
        report_detail::formatMicros(r.limitUs), report_detail::formatSpeedup(speedup), htmlEscape(r.bottleneck),
        htmlEscape(r.message));
  }
  out += "</tbody></table></section>\n";
}

constexpr const char* kStyle = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2433; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
.info { color: #5a6478; margin: 0 0 12px; }
section { overflow-x: auto; }
table { border-collapse: collapse; margin: 4px 0; }
th, td { border-bottom: 1px solid #dde1e8; padding: 3px 10px; text-align: left; vertical-align: top; }
th { background: #f3f5f8; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.fail td { color: #9b1c1c; }
.chart { position: relative; max-width: 1100px; margin: 8px 0 20px; }
.none { color: #5a6478; }
footer { color: #5a6478; margin-top: 32px; font-size: 12px; }
)css";

// Draws the four charts from the JSON island, then marks the document with how many canvases hold pixels, so
// a headless browser can tell that every chart drew (data-charts-drawn = data-charts-expected).
constexpr const char* kScript = R"js(
(function () {
  const root = document.documentElement;
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const palette = ['#3b6fd4', '#d4683b', '#3ba776', '#9b59b6', '#c9a227', '#2bb0c9', '#c93b6f', '#7f8c8d'];
  const barHeight = (n) => Math.max(160, 22 * n + 70) + 'px';
  const charts = [];
  function chart(id, rows, config) {
    const canvas = document.getElementById(id);
    canvas.parentElement.style.height = barHeight(rows);
    config.options = Object.assign({animation: false, responsive: true, maintainAspectRatio: false}, config.options);
    charts.push(new Chart(canvas, config));
  }
  try {
    const names = data.tasks.map((t) => t.name);
    chart('chart-speedup', names.length, {
      type: 'bar',
      data: {labels: names, datasets: [{label: 'geomean speedup over eager (0 = no correct case)',
                                        data: data.tasks.map((t) => t.speedup), backgroundColor: palette[0]}]},
      options: {indexAxis: 'y', scales: {x: {beginAtZero: true, title: {display: true, text: 'eager / simulated'}}}}
    });
    chart('chart-limit', names.length, {
      type: 'bar',
      data: {labels: names, datasets: [{label: 'limit score (0.5 = eager, 1 = hardware limit)',
                                        data: data.tasks.map((t) => t.limitScore), backgroundColor: palette[2]}]},
      options: {indexAxis: 'y', scales: {x: {min: 0, max: 1}}}
    });
    chart('chart-failures', data.failures.length, {
      type: 'bar',
      data: {labels: data.failures.map((f) => f.name),
             datasets: [{label: 'rows', data: data.failures.map((f) => f.rows), backgroundColor: palette[1]}]},
      options: {indexAxis: 'y', scales: {x: {beginAtZero: true, ticks: {precision: 0}}},
                plugins: {title: {display: data.failures.length === 0, text: 'no failing rows'}}}
    });
    chart('chart-pipes', data.pipeTasks.length, {
      type: 'bar',
      data: {labels: data.pipeTasks,
             datasets: data.pipes.map((p, i) => ({label: p.pipe, data: p.us,
                                                  backgroundColor: palette[i % palette.length]}))},
      options: {indexAxis: 'y', scales: {x: {stacked: true, beginAtZero: true, title: {display: true, text: 'us'}},
                                         y: {stacked: true}}}
    });
  } catch (e) {
    root.dataset.chartsError = String(e);
  }
  function drawn(canvas) {
    if (!canvas.width || !canvas.height) return false;
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
    return false;
  }
  function mark() {
    const canvases = Array.from(document.querySelectorAll('canvas'));
    root.dataset.chartsExpected = String(canvases.length);
    root.dataset.chartsDrawn = String(canvases.filter(drawn).length);
  }
  // Chart.js draws synchronously with animation off, so the marks are right at once; they are taken again after
  // the next frame in case a resize redrew. The first mark matters: a headless browser may dump the page before
  // any frame runs.
  mark();
  requestAnimationFrame(() => setTimeout(mark, 0));
})();
)js";

}  // namespace

std::string renderHtml(const Summary& s, const ReportInfo& info) {
  std::string title = info.title.empty() ? "tilecraft bench" : info.title;
  std::vector<Table> tables = report_detail::reportTables(s);
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + htmlEscape(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
  out += "<h1>" + htmlEscape(title) + "</h1>\n";
  if (std::string line = report_detail::infoLine(info); !line.empty()) {
    out += "<p class=\"info\">" + htmlEscape(line) + "</p>\n";
  }
  const char* const tableIds[] = {"overall", "levels", "categories", "tasks", "failures"};
  for (size_t i = 0; i < 3; ++i) appendTable(out, tables[i], tableIds[i]);
  out += "<section id=\"charts\">\n";
  const std::pair<const char*, const char*> charts[] = {
      {"chart-speedup", "Speedup over eager per task"},
      {"chart-limit", "Limit score per task"},
      {"chart-failures", "Failure taxonomy"},
      {"chart-pipes", "Busy time per pipe (slowest core, mean over the task's rows with a timeline)"},
  };
  for (const auto& [id, caption] : charts) {
    out += fmt::format(
        "<h2>{}</h2>\n<div class=\"chart\"><canvas id=\"{}\" role=\"img\" "
        "aria-label=\"{}\"></canvas></div>\n",
        caption, id, caption);
  }
  out += "</section>\n";
  for (size_t i = 3; i < tables.size(); ++i) appendTable(out, tables[i], tableIds[i]);
  appendRows(out, s.rows);
  out +=
      fmt::format("<footer>Charts: Chart.js {} (MIT), inlined.</footer>\n", htmlEscape(std::string(chartJsVersion())));
  out += "<script type=\"application/json\" id=\"report-data\">" + scriptJson(chartData(s)) + "</script>\n";
  out += "<script>\n" + inlineScript(chartJsSource()) + "\n</script>\n";
  out += std::string("<script>") + kScript + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace tilecraft::harness
