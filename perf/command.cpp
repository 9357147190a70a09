#include "perf/command.h"

#include <fmt/format.h>

#include <fstream>
#include <ostream>

#include "perf/calibrate.h"
#include "perf/error.h"

namespace tilecraft::perf {

int runCalibrate(const CalibrateOptions& options, std::ostream& out, std::ostream& err) {
  try {
    std::filesystem::path csv = options.csv.empty() ? defaultCalibrationCsv() : std::filesystem::path(options.csv);
    if (!std::filesystem::exists(csv)) {
      err << fmt::format(
          "error: cases file {} not found\n"
          "hint: pass FILE.csv, or set TILECRAFT_SHARED to a folder holding calibration/cann_bench_910b2_public.csv\n",
          csv.string());
      return 1;
    }
    std::filesystem::path archDir = options.archDir.empty() ? defaultArchDir() : options.archDir;
    ArchSpec arch = loadArchByName(options.arch, archDir);
    std::vector<TaskCase> cases = loadCasesCsv(csv);
    // Only the file name goes into the report: output must not depend on where the checkout lives.
    CalibrationReport report = calibrate(cases, arch, csv.filename().string());
    out << (options.json ? renderJson(report) : renderText(report, true));
    return 0;
  } catch (const PerfError& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace tilecraft::perf
