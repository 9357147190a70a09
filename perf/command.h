// The logic of `tilecraft perf ...`, kept out of cli/cmd_perf.cpp so tests can drive it with string streams.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>

namespace tilecraft::perf {

struct CalibrateOptions {
  std::string csv;  // empty: defaultCalibrationCsv()
  bool json = false;
  std::string arch = "910b2";
  std::filesystem::path archDir;  // empty: defaultArchDir()
};

// Returns the exit status: 0 on success, 1 on a user error (printed to `err`).
int runCalibrate(const CalibrateOptions& options, std::ostream& out, std::ostream& err);

// `tilecraft perf simulate` lives in perf/timeline_command.h (the timeline helper's).

}  // namespace tilecraft::perf
