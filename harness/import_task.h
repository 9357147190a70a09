// `tilecraft import`: upstream benchmark tasks (KernelBench and MultiKernelBench single-file models,
// NPUKernelBench task folders) become task folders in Tilecraft's format (docs/tasks.md), with a golden.py the
// golden worker runs unchanged. Shapes, dtypes and value ranges come from running the upstream code in the
// sandbox (import_probe.h). docs/import.md has the rules.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/import_probe.h"

namespace tilecraft::harness {

// One upstream task, found on disk.
struct ImportSource {
  std::filesystem::path path;     // the .py file, or the NPUKernelBench task folder
  std::string name;               // the task folder's name
  std::string displayPath;        // relative to the benchmark's root (level1/19_ReLU.py), for messages and docs
  std::string category;           // "" when the benchmark gives none
  int level = 0;                  // 0 when the benchmark gives none
  std::filesystem::path taskDir;  // where the task folder goes
  std::string benchmark;          // KernelBench, MultiKernelBench, NPUKernelBench
  std::string error;              // set when the source cannot be imported before probing (a missing file)
};

struct ImportRequest {
  ImportKind kind = ImportKind::KernelBench;
  std::vector<std::filesystem::path> paths;  // files or folders (docs/import.md, "Which files")
  bool multiKernelBench = false;             // paths are MultiKernelBench folders: category from the folder
  std::filesystem::path out;
  std::filesystem::path solutions;  // NPUKernelBench: answer/0/ goes to SOLUTIONS/<task>/; empty: not kept
  bool force = false;
};

enum class ImportStatus { Imported, Skipped, Failed };

struct ImportOutcome {
  std::string name;
  std::string displayPath;
  ImportStatus status = ImportStatus::Failed;
  std::string reason;              // Failed: why; Skipped: "already imported"
  int cases = 0;                   // Imported: how many cases were written
  std::vector<std::string> notes;  // Imported: what the reader should know (unknown ranges, no solution)
};

// The tasks `request` names, sorted by display path; a usage problem (a path that does not exist, a file that is
// not .py) goes to `usageError` and nothing is returned.
std::vector<ImportSource> findImportSources(const ImportRequest& request, std::string* usageError);

// The files of a task folder made from one probe result (file name -> contents), or the reason it cannot be.
struct TaskFiles {
  std::map<std::string, std::string> files;
  int cases = 0;
  std::vector<std::string> notes;
  std::string error;
};
TaskFiles makeTaskFiles(const ImportSource& source, ImportKind kind, const std::string& probeJson);

// Writes `files` as the folder `dir`, atomically: a temporary folder beside it, renamed into place (an existing
// folder is replaced only after the new one is complete). `copyFrom`: a folder copied in first (the upstream
// answer for solutions). false with `error` when the file system refuses.
bool writeFolderAtomically(const std::filesystem::path& dir, const std::map<std::string, std::string>& files,
                           const std::filesystem::path& copyFrom, std::string* error);

// The whole import: finds, probes (the tasks not yet imported, or all with force), writes, one outcome per task.
std::vector<ImportOutcome> runImport(const ImportRequest& request, const std::vector<ImportSource>& sources,
                                     ImportProbe& probe);

}  // namespace tilecraft::harness
