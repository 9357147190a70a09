// The registry OP_ADD fills (CANN's register/op_def_factory.h).
#pragma once

#include <functional>
#include <map>
#include <string>

#include "register/op_def.h"

namespace ops {

using OpDefCreator = std::function<OpDef(const char*)>;

class OpDefFactory {
 public:
  static int OpDefRegister(const char* name, OpDefCreator creator, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    tcemuRegistry().emplace(name, Entry{std::move(creator), loc});
    return 0;
  }
  struct Entry {
    OpDefCreator creator;
    tcemu::SrcLoc loc;  // the OP_ADD line
  };
  // The emulator's: every OP_ADD, by operator type.
  static std::map<std::string, Entry>& tcemuRegistry() {
    static std::map<std::string, Entry> registry;
    return registry;
  }
};

}  // namespace ops
