// libFuzzer target: bytes as a task's cases.csv, through the CSV reader, the cell-literal rewriter and the case
// rules (harness/csv.h, harness/case_parse.h) by way of harness::loadTask, the path `tilecraft bench` takes.
// The rows are checked against the proto.yaml of one of four shipped tasks (copied once into a temporary folder):
// the first whose operator the text names, so that the shipped cases.csv files seed their own task.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "harness/csv.h"
#include "harness/task.h"
#include "support/files.h"

namespace {

struct FuzzTask {
  const char* folder;
  const char* op;
  std::filesystem::path dir;
};

std::filesystem::path scratch;

void removeScratch() {
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
}

std::vector<FuzzTask> copyTasks() {
  char pattern[] = "/tmp/tilecraft_fuzz_csv.XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    std::perror("mkdtemp");
    std::abort();
  }
  scratch = pattern;
  std::atexit(removeScratch);
  std::vector<FuzzTask> tasks = {
      {"level1/leaky_relu", "LeakyRelu", {}},
      {"level1/add", "Add", {}},
      {"level2/rms_norm", "RmsNorm", {}},
      {"level3/matmul", "MatMul", {}},
  };
  for (FuzzTask& task : tasks) {
    std::filesystem::path from = std::filesystem::path(TILECRAFT_SOURCE_DIR) / "tasks" / task.folder;
    task.dir = scratch / from.filename();
    std::filesystem::create_directories(task.dir);
    for (const char* file : {"proto.yaml", "golden.py", "desc.md"}) {
      std::filesystem::copy_file(from / file, task.dir / file);
    }
  }
  return tasks;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilecraft;
  static const std::vector<FuzzTask> tasks = copyTasks();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // The readers on their own first: every cell as a literal, as the loader would for its literal columns.
  std::vector<harness::CsvError> errors;
  for (const harness::CsvRecord& record : harness::readCsv(text, errors)) {
    for (const std::string& cell : record.cells) {
      std::string json, error;
      harness::literalToJson(cell, json, error);
    }
  }
  std::filesystem::path dir = tasks.front().dir;
  for (const FuzzTask& task : tasks) {
    if (text.find(task.op) != std::string_view::npos) {
      dir = task.dir;
      break;
    }
  }
  std::string error;
  if (!support::writeFileAtomically(dir / "cases.csv", text, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::abort();
  }
  harness::TaskLoad load = harness::loadTask(dir, {harness::CasesSource::Csv});
  for (const harness::TaskError& e : load.errors) e.str();
  return 0;
}
