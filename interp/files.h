// The file system as the commands see it: reading and writing whole files. DiskFiles is the real one; tests use
// MemoryFiles, so no command test touches the disk.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace tilecraft::interp {

class Files {
 public:
  virtual ~Files() = default;
  /// nullopt with `error` set ("cannot read 'x.npy': No such file or directory").
  virtual std::optional<std::string> read(const std::string& path, std::string* error) = 0;
  /// Writes `bytes`, creating missing parent directories; false with `error` set.
  virtual bool write(const std::string& path, const std::string& bytes, std::string* error) = 0;
};

class DiskFiles final : public Files {
 public:
  std::optional<std::string> read(const std::string& path, std::string* error) override;
  bool write(const std::string& path, const std::string& bytes, std::string* error) override;
};

class MemoryFiles final : public Files {
 public:
  std::optional<std::string> read(const std::string& path, std::string* error) override {
    auto it = files.find(path);
    if (it != files.end()) return it->second;
    *error = "cannot read '" + path + "': No such file or directory";
    return std::nullopt;
  }
  bool write(const std::string& path, const std::string& bytes, std::string*) override {
    files[path] = bytes;
    return true;
  }
  std::map<std::string, std::string> files;
};

}  // namespace tilecraft::interp
