// gert::TilingParseContext, what a TilingParse function reads (CANN's exe_graph/runtime/tiling_parse_context.h).
// The emulator has no compile-time JSON ("{}"): the compiled info is TilingParse<T>'s T, default-constructed before the
// TilingParse function runs (emu/host_driver.h, before TilingFunc).
#pragma once

#include "exe_graph/runtime/extended_kernel_context.h"

namespace gert {

class TilingParseContext : public ExtendedKernelContext {
 public:
  using ExtendedKernelContext::ExtendedKernelContext;
  const ge::char_t* GetCompiledJson() const { return "{}"; }
  template <typename T>
  auto GetCompiledInfo() -> T* {
    return static_cast<T*>(const_cast<void*>(call_->compileInfo));
  }
  fe::PlatFormInfos* GetPlatformInfo() const { return call_->platform; }
};

}  // namespace gert
