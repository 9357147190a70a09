#include "harness/import_task.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "harness/import_files.h"
#include "support/files.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The nearest folder named levelN at or above `dir`: N, and the folder; 0 when there is none.
std::pair<int, fs::path> levelOf(const fs::path& dir) {
  for (fs::path p = dir; !p.empty() && p != p.root_path(); p = p.parent_path()) {
    std::string n = p.filename().string();
    if (n.size() > 5 && n.rfind("level", 0) == 0 &&
        std::all_of(n.begin() + 5, n.end(), [](unsigned char c) { return std::isdigit(c); }))
      return {std::stoi(n.substr(5)), p};
    if (p == p.parent_path()) break;
  }
  return {0, {}};
}

std::vector<fs::path> pythonFilesIn(const fs::path& dir, bool recursive) {
  std::vector<fs::path> out;
  std::error_code ec;
  auto take = [&](const fs::directory_entry& e) {
    std::string n = e.path().filename().string();
    if (e.is_regular_file() && e.path().extension() == ".py" && n.rfind("__", 0) != 0) out.push_back(e.path());
  };
  if (recursive) {
    for (const auto& e : fs::recursive_directory_iterator(dir, ec)) take(e);
  } else {
    for (const auto& e : fs::directory_iterator(dir, ec)) take(e);
  }
  std::sort(out.begin(), out.end());
  return out;
}

ImportSource kernelBenchSource(const fs::path& file, const ImportRequest& request) {
  ImportSource s;
  s.path = file;
  s.benchmark = "KernelBench";
  s.name = taskNameOf(file.stem().string());
  auto [level, levelDir] = levelOf(file.parent_path());
  s.level = level;
  s.displayPath = level ? fs::relative(file, levelDir.parent_path()).generic_string() : file.filename().string();
  s.taskDir = level ? request.out / fmt::format("level{}", level) / s.name : request.out / s.name;
  return s;
}

ImportSource multiKernelBenchSource(const fs::path& file, const std::string& category, const ImportRequest& request) {
  ImportSource s;
  s.path = file;
  s.benchmark = "MultiKernelBench";
  s.name = taskNameOf(file.stem().string());
  s.category = category;
  s.displayPath = category + "/" + file.filename().string();
  s.taskDir = request.out / category / s.name;
  return s;
}

bool isNpuTaskDir(const fs::path& dir) {
  return fs::is_regular_file(dir / "api_desc.md") || fs::is_directory(dir / "validation");
}

void findNpuTaskDirs(const fs::path& dir, std::vector<fs::path>& out) {
  if (isNpuTaskDir(dir)) {
    out.push_back(dir);
    return;
  }
  std::vector<fs::path> subs;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory()) subs.push_back(e.path());
  }
  std::sort(subs.begin(), subs.end());
  for (const fs::path& s : subs) findNpuTaskDirs(s, out);
}

ImportSource npuKernelBenchSource(const fs::path& dir, const ImportRequest& request) {
  ImportSource s;
  s.path = dir;
  s.benchmark = "NPUKernelBench";
  s.name = snakeCase(dir.filename().string());
  auto [level, levelDir] = levelOf(dir.parent_path());
  s.level = level;
  if (level && dir.parent_path().parent_path() == levelDir) s.category = dir.parent_path().filename().string();
  s.displayPath = level ? fs::relative(dir, levelDir.parent_path()).generic_string() : dir.filename().string();
  s.taskDir = level ? request.out / fmt::format("level{}", level) / s.name : request.out / s.name;
  std::vector<std::string> missing;
  for (const char* f :
       {"api_desc.md", "validation/module.py", "validation/prepare_inputs.py", "validation/test_cases.csv"}) {
    if (!fs::is_regular_file(dir / f)) missing.push_back(f);
  }
  if (!missing.empty()) {
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    s.error = fmt::format(
        "missing {} (an NPUKernelBench task has api_desc.md, validation/module.py, "
        "validation/prepare_inputs.py and validation/test_cases.csv)",
        list);
  }
  return s;
}

}  // namespace

std::vector<ImportSource> findImportSources(const ImportRequest& request, std::string* usageError) {
  std::vector<ImportSource> out;
  for (const fs::path& p : request.paths) {
    std::error_code ec;
    if (!fs::exists(p, ec)) {
      *usageError = fmt::format("{}: no such file or folder", p.string());
      return {};
    }
    size_t before = out.size();
    if (request.kind == ImportKind::NpuKernelBench) {
      if (!fs::is_directory(p)) {
        *usageError = fmt::format(
            "{}: not a folder (give an NPUKernelBench task folder or a folder above task folders)", p.string());
        return {};
      }
      std::vector<fs::path> dirs;
      findNpuTaskDirs(p, dirs);
      for (const fs::path& d : dirs) out.push_back(npuKernelBenchSource(d, request));
    } else if (request.multiKernelBench) {
      if (!fs::is_directory(p)) {
        *usageError = fmt::format(
            "{}: not a folder (--multikernelbench takes MultiKernelBench's reference/ folder "
            "or one of its category folders)",
            p.string());
        return {};
      }
      std::vector<fs::path> direct = pythonFilesIn(p, false);
      if (!direct.empty()) {
        for (const fs::path& f : direct) out.push_back(multiKernelBenchSource(f, p.filename().string(), request));
      } else {
        std::vector<fs::path> categories;
        for (const auto& e : fs::directory_iterator(p, ec)) {
          if (e.is_directory()) categories.push_back(e.path());
        }
        std::sort(categories.begin(), categories.end());
        for (const fs::path& c : categories) {
          for (const fs::path& f : pythonFilesIn(c, false))
            out.push_back(multiKernelBenchSource(f, c.filename().string(), request));
        }
      }
    } else if (fs::is_directory(p)) {
      for (const fs::path& f : pythonFilesIn(p, true)) out.push_back(kernelBenchSource(f, request));
    } else if (p.extension() != ".py") {
      *usageError = fmt::format("{}: not a .py file (a KernelBench task is one Python file)", p.string());
      return {};
    } else {
      out.push_back(kernelBenchSource(p, request));
    }
    if (out.size() == before) {
      *usageError = fmt::format("{}: no {} task in this folder", p.string(),
                                request.kind == ImportKind::NpuKernelBench ? "NPUKernelBench"
                                : request.multiKernelBench                 ? "MultiKernelBench"
                                                                           : "KernelBench");
      return {};
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const ImportSource& a, const ImportSource& b) { return a.displayPath < b.displayPath; });
  // Two upstream tasks that would land in one folder: the second is reported, never silently overwritten.
  std::map<fs::path, std::string> seen;
  for (ImportSource& s : out) {
    auto [it, fresh] = seen.emplace(s.taskDir, s.displayPath);
    if (!fresh && s.error.empty())
      s.error = fmt::format("its task folder {} is also that of {}", s.taskDir.string(), it->second);
  }
  return out;
}

bool writeFolderAtomically(const fs::path& dir, const std::map<std::string, std::string>& files,
                           const fs::path& copyFrom, std::string* error) {
  std::error_code ec;
  fs::path parent = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
  fs::create_directories(parent, ec);
  std::string stem = dir.filename().string();
  fs::path tmp = parent / fmt::format(".{}.importing-{}", stem, ::getpid());
  fs::path old = parent / fmt::format(".{}.replaced-{}", stem, ::getpid());
  fs::remove_all(tmp, ec);
  auto fail = [&](const std::string& what) {
    *error = what;
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
    return false;
  };
  if (!fs::create_directories(tmp, ec)) return fail(fmt::format("cannot create {}: {}", tmp.string(), ec.message()));
  if (!copyFrom.empty()) {
    fs::copy(copyFrom, tmp, fs::copy_options::recursive, ec);
    if (ec) return fail(fmt::format("cannot copy {}: {}", copyFrom.string(), ec.message()));
  }
  for (const auto& [name, text] : files) {
    std::string why;
    fs::create_directories((tmp / name).parent_path(), ec);
    if (!support::writeFileAtomically(tmp / name, text, &why)) return fail(why);
  }
  bool replacing = fs::exists(dir, ec);
  if (replacing) {
    fs::remove_all(old, ec);
    fs::rename(dir, old, ec);
    if (ec) return fail(fmt::format("cannot move the old {} aside: {}", dir.string(), ec.message()));
  }
  fs::rename(tmp, dir, ec);
  if (ec) {
    if (replacing) fs::rename(old, dir, ec);
    return fail(fmt::format("cannot rename {} to {}: {}", tmp.string(), dir.string(), ec.message()));
  }
  if (replacing) fs::remove_all(old, ec);
  return true;
}

std::vector<ImportOutcome> runImport(const ImportRequest& request, const std::vector<ImportSource>& sources,
                                     ImportProbe& probe) {
  std::vector<ImportOutcome> outcomes(sources.size());
  std::vector<ProbeItem> items;
  std::vector<size_t> itemSource;
  for (size_t i = 0; i < sources.size(); ++i) {
    const ImportSource& s = sources[i];
    ImportOutcome& o = outcomes[i];
    o.name = s.name;
    o.displayPath = s.displayPath;
    if (!s.error.empty()) {
      o.reason = s.error;
    } else if (!request.force && fs::exists(s.taskDir / "proto.yaml")) {
      o.status = ImportStatus::Skipped;
      o.reason = "already imported";
    } else {
      items.push_back(ProbeItem{fmt::format("{}", i), s.path});
      itemSource.push_back(i);
    }
  }
  if (items.empty()) return outcomes;
  ImportKind kind = request.kind;
  std::vector<ProbeResult> results = probe.probe(kind, items);
  for (size_t k = 0; k < results.size() && k < itemSource.size(); ++k) {
    const ImportSource& s = sources[itemSource[k]];
    ImportOutcome& o = outcomes[itemSource[k]];
    if (!results[k].ok) {
      o.reason = results[k].error;
      continue;
    }
    TaskFiles files = makeTaskFiles(s, kind, results[k].json);
    if (!files.error.empty()) {
      o.reason = files.error;
      continue;
    }
    std::string why;
    if (!writeFolderAtomically(s.taskDir, files.files, {}, &why)) {
      o.reason = why;
      continue;
    }
    o.status = ImportStatus::Imported;
    o.cases = files.cases;
    o.notes = files.notes;
    if (kind == ImportKind::NpuKernelBench && !request.solutions.empty()) {
      fs::path answer = s.path / "answer" / "0";
      fs::path target = request.solutions / s.name;
      if (!fs::is_directory(answer)) {
        o.notes.push_back("no answer/0/: no reference solution kept");
      } else if (request.force || !fs::exists(target)) {
        if (!writeFolderAtomically(target, {}, answer, &why)) o.notes.push_back("reference solution not kept: " + why);
      }
    }
  }
  return outcomes;
}

}  // namespace tilecraft::harness
