// The tools `tilecraft mcp` offers: list_tasks, show_task, check_program, run_solution, bench_solution and
// language_reference. Judging goes through a Judge (HarnessJudge in the command, a fake in tests).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "service/judge.h"
#include "service/mcp.h"

namespace tilecraft::service {

struct ToolContext {
  std::filesystem::path suiteRoot = "tasks";
  std::filesystem::path scratchDir;  // check_program writes the program here
  Judge* judge = nullptr;
};

std::vector<McpTool> makeTilecraftTools(const ToolContext& context);

// check_program's work: the DSL `source` compiled as `fileName` (front end, lowering, passes, emitter), the
// compiler's JSON diagnostics in {"ok": ..., "diagnostics": [...]}; paths name `fileName` alone.
std::string checkProgram(const std::string& source, const std::string& fileName,
                         const std::filesystem::path& scratchDir);

}  // namespace tilecraft::service
