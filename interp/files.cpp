#include "interp/files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/files.h"

namespace tilecraft::interp {

std::optional<std::string> DiskFiles::read(const std::string& path, std::string* error, uint64_t maxBytes) {
  return support::readInputFile(path, maxBytes, error);
}

bool DiskFiles::write(const std::string& path, const std::string& bytes, std::string* error) {
  std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  if (ec) {
    *error = "cannot create '" + p.parent_path().string() + "': " + ec.message();
    return false;
  }
  // Through a temporary file and a rename: a failed or killed write never leaves half a file under the name.
  return support::writeFileAtomically(p, bytes, error);
}

}  // namespace tilecraft::interp
