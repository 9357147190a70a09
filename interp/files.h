// The file system as the commands see it: reading and writing whole files. DiskFiles is the real one; tests use
// MemoryFiles, so no command test touches the disk.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace tilecraft::interp {

class Files {
 public:
  virtual ~Files() = default;
  /// The most a file read without a stated limit may hold (a program, a CSV).
  static constexpr uint64_t kDefaultMaxBytes = uint64_t{1} << 30;
  /// nullopt with `error` set ("cannot read 'x.npy': No such file or directory", "'d' is a folder, not a file",
  /// "'x.npy' has 9000 bytes, more than the 2128 it may have"): only regular files of at most `maxBytes` are read.
  virtual std::optional<std::string> read(const std::string& path, std::string* error, uint64_t maxBytes) = 0;
  std::optional<std::string> read(const std::string& path, std::string* error) {
    return read(path, error, kDefaultMaxBytes);
  }
  /// Writes `bytes`, creating missing parent directories; false with `error` set.
  virtual bool write(const std::string& path, const std::string& bytes, std::string* error) = 0;
};

class DiskFiles final : public Files {
 public:
  using Files::read;
  std::optional<std::string> read(const std::string& path, std::string* error, uint64_t maxBytes) override;
  bool write(const std::string& path, const std::string& bytes, std::string* error) override;
};

class MemoryFiles final : public Files {
 public:
  using Files::read;
  std::optional<std::string> read(const std::string& path, std::string* error, uint64_t maxBytes) override {
    auto it = files.find(path);
    if (it == files.end()) {
      *error = "cannot read '" + path + "': No such file or directory";
      return std::nullopt;
    }
    if (it->second.size() > maxBytes) {
      *error = "'" + path + "' has " + std::to_string(it->second.size()) + " bytes, more than the " +
               std::to_string(maxBytes) + " it may have";
      return std::nullopt;
    }
    return it->second;
  }
  bool write(const std::string& path, const std::string& bytes, std::string*) override {
    files[path] = bytes;
    return true;
  }
  std::map<std::string, std::string> files;
};

}  // namespace tilecraft::interp
