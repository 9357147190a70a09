#pragma once

namespace tilecraft::codegen::detail {

/// The launcher's fixed helper code (namespace tclaunch), emitted verbatim into every kernel file.
const char* launcherRuntime();

}  // namespace tilecraft::codegen::detail
