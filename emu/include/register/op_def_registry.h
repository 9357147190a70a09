// OP_ADD, which registers an operator definition (CANN's register/op_def_registry.h). CANN expands it three ways
// (plain, OP_PROTO_LIB, OP_TILING_LIB) for its three build products; the emulator builds one program, so one.
#pragma once

#include "register/op_def.h"
#include "register/op_def_factory.h"

#define OP_ADD(opType, ...)                                           \
  static int g_##opType##_added = ::ops::OpDefFactory::OpDefRegister( \
      #opType, [](const char* name) -> ::ops::OpDef { return opType(name); }, tcemu::SrcLoc{__FILE__, __LINE__})
