// The check of an untrusted kernel source before it is built (CANN Bench's submission rules are the model): a
// submitted kernel is the kernel only. It must not define `main` (the harness builds the launcher), must not
// name the emulator's internals (`tcemu`, which holds the verdict channel and the fail handler), and may
// include only the kernel API's headers and its own project's files, which are checked the same way.
#pragma once

#include <string>
#include <vector>

namespace tilecraft::runner {

// Every problem, each "FILE:LINE: error: WHAT\nhint: HOW", in the order found; empty when the source may be
// built. `apiDir` is the emulator's include folder: its headers are the kernel API.
std::vector<std::string> checkKernelSource(const std::string& path, const std::string& apiDir);

// The same for source text already read (the project's folder is `path`'s).
std::vector<std::string> checkKernelText(const std::string& path, const std::string& text, const std::string& apiDir);

}  // namespace tilecraft::runner
