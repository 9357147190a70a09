#include "support/assert.h"

#include <cstdio>
#include <cstdlib>

namespace tilecraft::support {

void assertFailed(const char* file, int line, const char* condition, const std::string& message) {
  std::fprintf(stderr, "tilecraft internal error: %s:%d: check '%s' failed%s%s\n", file, line, condition,
               message.empty() ? "" : ": ", message.c_str());
  std::fprintf(stderr, "hint: this is a bug in Tilecraft, not in the input; please report it with this message\n");
  std::fflush(stderr);
  std::abort();
}

}  // namespace tilecraft::support
