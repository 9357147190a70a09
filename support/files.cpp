#include "support/files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

namespace tilecraft::support {

std::optional<std::string> readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool writeFileAtomically(const std::filesystem::path& path, std::string_view bytes, std::string* error) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (out) out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      *error = "cannot write " + tmp.string() + ": " + std::strerror(errno);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    *error = "cannot rename " + tmp.string() + " to " + path.string() + ": " + ec.message();
    return false;
  }
  return true;
}

std::vector<std::filesystem::path> listFilesRecursively(const std::filesystem::path& dir, std::string_view extension) {
  std::vector<std::filesystem::path> paths;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return paths;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec); !ec && it != decltype(it){};
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_regular_file(ec) && name.size() >= extension.size() &&
        name.compare(name.size() - extension.size(), extension.size(), extension) == 0) {
      paths.push_back(it->path());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace tilecraft::support
