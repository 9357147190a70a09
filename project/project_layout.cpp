#include "project/project_layout.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <initializer_list>
#include <system_error>

#include <fmt/format.h>

#include "support/files.h"

namespace tilecraft::project {

namespace fs = std::filesystem;

namespace {

// The C++ sources of a folder. op_host's may end in .cc or .cxx too, as CMake's target_sources take them
// (FeedsRepeat's tiling is feeds_repeat_tiling.cc); msopgen installs only op_kernel's *.cpp as the kernel.
std::vector<std::string> sourceFiles(const fs::path& dir, std::initializer_list<const char*> extensions) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    for (const char* extension : extensions) {
      if (entry.path().extension() == extension) files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string joinNames(const std::vector<std::string>& paths) {
  std::string s;
  for (const std::string& p : paths) s += (s.empty() ? "" : ", ") + fs::path(p).filename().string();
  return s;
}

// bisheng's --cce-auto-sync, as the project's build passes it (add_ops_compile_options in the top or op_kernel
// CMakeLists.txt): on unless turned off; the last mention wins.
bool autoSyncOption(const std::string& absDir) {
  bool on = true;
  for (const char* file : {"CMakeLists.txt", "op_kernel/CMakeLists.txt"}) {
    std::string text = support::readFile((fs::path(absDir) / file).string()).value_or("");
    const std::string flag = "--cce-auto-sync";
    for (size_t at = text.find(flag); at != std::string::npos; at = text.find(flag, at + flag.size())) {
      on = text.compare(at + flag.size(), 4, "=off") != 0;
    }
  }
  return on;
}

}  // namespace

bool findLayout(const std::string& dir, ProjectLayout& layout, std::string* error) {
  layout.dir = dir;
  std::error_code ec;
  layout.absDir = fs::absolute(dir, ec).lexically_normal().string();
  if (!layout.absDir.empty() && layout.absDir.back() == '/') layout.absDir.pop_back();
  if (!fs::is_directory(dir, ec)) {
    *error = fmt::format("error: {}: no such folder", dir);
    return false;
  }
  for (const char* sub : {"op_host", "op_kernel"}) {
    if (!fs::is_directory(fs::path(dir) / sub, ec)) {
      *error = fmt::format(
          "error: {}: no {}/ folder (a CANN operator project, as msopgen lays it out, has op_host/ "
          "and op_kernel/)",
          dir, sub);
      return false;
    }
  }
  // An op_host folder may also hold the operator's aclnn API (opdev/, aclnn/ includes): msopgen builds that into
  // the op API library, not into the tiling program.
  for (const std::string& file : sourceFiles(fs::path(layout.absDir) / "op_host", {".cpp", ".cc", ".cxx"})) {
    std::string text = support::readFile(file).value_or("");
    bool aclnn = false;
    for (const char* api : {"\"opdev/", "\"aclnn/", "\"aclnn_kernels/", "\"level0/", "\"level2/", "<opdev/"}) {
      aclnn = aclnn || text.find(std::string("#include ") + api) != std::string::npos;
    }
    if (!aclnn) layout.hostSources.push_back(file);
  }
  if (layout.hostSources.empty()) {
    *error = fmt::format("error: {}/op_host: no .cpp or .cc file with the OpDef, TilingFunc and InferShape", dir);
    return false;
  }
  std::vector<std::string> kernels = sourceFiles(fs::path(layout.absDir) / "op_kernel", {".cpp"});
  if (kernels.size() != 1) {
    *error = kernels.empty() ? fmt::format("error: {}/op_kernel: no .cpp file (the kernel)", dir)
                             : fmt::format("error: {}/op_kernel: {} .cpp files ({}); a project has one kernel", dir,
                                           kernels.size(), joinNames(kernels));
    return false;
  }
  layout.kernelSource = kernels.front();
  layout.autoSync = autoSyncOption(layout.absDir);
  return true;
}

bool openLayout(const std::string& path, const fs::path& scratch, ProjectLayout& layout, std::string* error) {
  if (!isSnippetPath(path)) return findLayout(path, layout, error);
  std::vector<SourceMap> maps;
  if (!unpackSnippet(path, scratch, maps, *error)) return false;
  if (!findLayout(scratch.string(), layout, error)) return false;
  layout.sources = std::move(maps);
  layout.dir = path;  // the rest of the unpacked project's paths read as SNIPPET.py/op_kernel/...
  return true;
}

std::string kernelEntryName(const std::string& opType) {
  std::string name;
  for (size_t i = 0; i < opType.size(); ++i) {
    char c = opType[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      bool prevLower = i > 0 && (std::islower(static_cast<unsigned char>(opType[i - 1])) ||
                                 std::isdigit(static_cast<unsigned char>(opType[i - 1])));
      bool nextLower = i + 1 < opType.size() && std::islower(static_cast<unsigned char>(opType[i + 1]));
      bool prevUpper = i > 0 && std::isupper(static_cast<unsigned char>(opType[i - 1]));
      if (i > 0 && (prevLower || (prevUpper && nextLower))) name += '_';
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      name += c;
    }
  }
  return name;
}

std::string kernelMode(const std::string& text) {
  if (text.find("KERNEL_TYPE_AIV_ONLY") != std::string::npos) return "aiv";
  if (text.find("KERNEL_TYPE_AIC_ONLY") != std::string::npos) return "aic";
  if (text.find("KERNEL_TYPE_MIX_AIC_1_1") != std::string::npos) return "mix11";
  if (text.find("KERNEL_TYPE_MIX_AIC_1_2") != std::string::npos) return "mix";
  for (const char* cube : {"matmul_intf.h", "Mmad", "Matmul<", "MatmulImpl<"}) {
    if (text.find(cube) != std::string::npos) return "mix";
  }
  return "aiv";
}

}  // namespace tilecraft::project
