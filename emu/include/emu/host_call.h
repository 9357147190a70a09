// The state of one host-side operator call (the tiling and shape-inference contexts read and fill it). CANN's
// framework builds its contexts from a graph node; here tcemu::host::runCase (emu/host_driver.h) fills this from a
// case and hands the contexts a pointer to it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emu/base.h"
#include "graph/types.h"

namespace gert {

// The storage format of a tensor (CANN's exe_graph/runtime/storage_format.h, reduced to the two formats).
class StorageFormat {
 public:
  StorageFormat() = default;
  StorageFormat(ge::Format origin, ge::Format storage) : origin_(origin), storage_(storage) {}
  ge::Format GetOriginFormat() const { return origin_; }
  ge::Format GetStorageFormat() const { return storage_; }
  void SetOriginFormat(ge::Format f) { origin_ = f; }
  void SetStorageFormat(ge::Format f) { storage_ = f; }

 private:
  ge::Format origin_ = ge::FORMAT_ND;
  ge::Format storage_ = ge::FORMAT_ND;
};

}  // namespace gert

namespace tcemu::host {

[[noreturn]] inline void hostFail(const SrcLoc& loc, const std::string& message) {
  CheckError e{loc, message, {}};
  raise(std::move(e));
}

}  // namespace tcemu::host
