// A stand-in for the emulator, for the CLI's own tests: it honours only the run contract the CLI relies on
// (a report line per launch in $TILECRAFT_EMU_REPORT, "FILE:LINE: error:" and status 3 on a failed check).
#pragma once
#include <cstdio>
#include <cstdlib>

inline void stubLaunch(const char* kernel, int blocks) {
  if (const char* path = std::getenv("TILECRAFT_EMU_REPORT")) {
    if (std::FILE* f = std::fopen(path, "a")) {
      std::fprintf(f, "{\"kernel\":\"%s\",\"blocks\":%d,\"mode\":\"AIV\",\"instructions\":%d,\"checks\":\"passed\"}\n",
                   kernel, blocks, 10 * blocks);
      std::fclose(f);
    }
  }
}

inline void stubCheckFailed(const char* file, int line, const char* message) {
  std::fprintf(stderr, "%s:%d: error: %s\n%s:%d: note: from the stub emulator\n", file, line, message, file, line);
  std::exit(3);
}
