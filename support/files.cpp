#include "support/files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <fmt/format.h>
#include <sys/stat.h>
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

namespace {

const char* kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a pipe";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::optional<std::string> readInputFile(const std::filesystem::path& path, uint64_t maxBytes, std::string* error) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    *error = fmt::format("cannot read '{}': {}", path.string(), std::strerror(errno));
    return std::nullopt;
  }
  if (!S_ISREG(info.st_mode)) {
    *error = fmt::format("'{}' is {}, not a file", path.string(), kindOf(info.st_mode));
    return std::nullopt;
  }
  if (static_cast<uint64_t>(info.st_size) > maxBytes) {
    *error = fmt::format("'{}' has {} bytes, more than the {} it may have", path.string(), info.st_size, maxBytes);
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = fmt::format("cannot read '{}': {}", path.string(), std::strerror(errno));
    return std::nullopt;
  }
  // The file may grow between stat and read: read one byte past the cap to notice, never more.
  std::string bytes(static_cast<size_t>(info.st_size) + 1, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) {
    *error = fmt::format("cannot read '{}': {}", path.string(), std::strerror(errno));
    return std::nullopt;
  }
  if (bytes.size() > maxBytes) {
    *error = fmt::format("'{}' grew past the {} bytes it may have while it was read", path.string(), maxBytes);
    return std::nullopt;
  }
  return bytes;
}

bool prepareOutputFolder(const std::filesystem::path& path, std::string* error) {
  std::error_code ec;
  std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (std::filesystem::exists(status)) {
    if (std::filesystem::is_directory(status)) return true;
    *error = fmt::format("'{}' is a file, not a folder", path.string());
    return false;
  }
  std::filesystem::create_directories(path, ec);
  if (ec) {
    // The part of the path that is in the way (a file where a folder should be) says more than the errno.
    *error = fmt::format("cannot create the folder '{}': {}", path.string(), ec.message());
    return false;
  }
  return true;
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
