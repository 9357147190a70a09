#include "runner/process_service.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

namespace tilecraft::runner {

namespace fs = std::filesystem;

BuildResult ProcessRunnerService::build(const BuildRequest& request) {
  BuildResult result;
  fs::path source(request.source);
  std::string output = (source.parent_path() / source.stem()).string();
  support::ProcessSpec spec;
  spec.argv = compileCommand(request, emuInclude_, compiler_, output);
  spec.env["LC_ALL"] = "C";
  spec.timeoutSeconds = request.limits.wallSeconds;
  support::ProcessResult ran = runner_.run(spec);
  result.exitCode = ran.exitCode;
  result.termSignal = ran.termSignal;
  result.timedOut = ran.timedOut;
  result.diagnostics = ran.err;
  result.cannotStart = ran.exitCode < 0 && ran.termSignal == 0 && !ran.timedOut;
  result.ok = ran.exitCode == 0;
  result.program = output;
  result.seconds = ran.seconds;
  return result;
}

RunResult ProcessRunnerService::run(const RunRequest& request) {
  RunResult result;
  fs::path report = fs::path(request.workDir) / "report.jsonl";
  std::error_code ec;
  fs::remove(report, ec);
  support::ProcessSpec spec;
  spec.argv = {request.program};
  spec.argv.insert(spec.argv.end(), request.args.begin(), request.args.end());
  spec.workdir = request.workDir;
  spec.env = request.env;
  spec.env["TILECRAFT_EMU_REPORT"] = report.string();
  if (request.trace) spec.env["TILECRAFT_EMU_TRACE"] = (fs::path(request.workDir) / "trace.jsonl").string();
  spec.timeoutSeconds = request.limits.wallSeconds;
  support::ProcessResult ran = runner_.run(spec);
  result.exitCode = ran.exitCode;
  result.termSignal = ran.termSignal;
  result.out = ran.out;
  result.err = ran.err;
  result.seconds = ran.seconds;
  if (request.trace && fs::exists(spec.env["TILECRAFT_EMU_TRACE"], ec))
    result.tracePath = spec.env["TILECRAFT_EMU_TRACE"];
  std::ifstream in(report, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  result.report = text.str();
  auto set = [&](RunStatus status, std::string message) {
    result.status = status;
    result.message = std::move(message);
    return result;
  };
  if (ran.timedOut)
    return set(RunStatus::TimedOut, fmt::format("timed out after {:g} s (wall clock)", request.limits.wallSeconds));
  if (ran.termSignal != 0) return set(RunStatus::Crashed, fmt::format("killed by signal {}", ran.termSignal));
  if (ran.exitCode < 0) return set(RunStatus::CannotStart, ran.err);
  if (ran.exitCode == 3) {
    static const std::regex errorLine(R"(^.+:[0-9]+: error: .*$)");
    std::istringstream lines(ran.err);
    for (std::string line; std::getline(lines, line);) {
      if (std::regex_match(line, errorLine)) return set(RunStatus::CheckFailed, line);
    }
  }
  if (ran.exitCode == 2) return set(RunStatus::UsageError, ran.err.substr(0, ran.err.find('\n')));
  if (ran.exitCode != 0) return set(RunStatus::Crashed, fmt::format("exit status {}", ran.exitCode));
  result.status = RunStatus::Passed;
  return result;
}

}  // namespace tilecraft::runner
