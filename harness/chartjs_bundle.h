// The pinned Chart.js UMD bundle (web/package-lock.json), embedded into the library at build time from
// web/node_modules/chart.js/dist/chart.umd.js so an HTML report works offline and the binary needs no files.
#pragma once

#include <string_view>

namespace tilecraft::harness {

std::string_view chartJsSource();
std::string_view chartJsVersion();  // e.g. "4.5.1"

}  // namespace tilecraft::harness
