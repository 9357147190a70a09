// The checks every command puts on the same kinds of flag, in one place: a seconds flag (--timeout), a count
// flag, a folder the command writes into. The values themselves are read by support/numbers.h; the shapes,
// attributes and input files of a kernel by interp/kernel_args.h.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

namespace CLI {
class Option;
}

namespace tilecraft::cli {

/// --timeout and the like: a finite number of seconds in (0, support::kMaxSeconds], or also 0 for "no limit" when
/// `zeroMeansNone`. "inf", "nan", "-1" and "1e10" are refused with the reason (CLI11 exits 2).
CLI::Option* checkSeconds(CLI::Option* option, bool zeroMeansNone);

/// A whole number in [lo, hi]; `unit` names what it counts in the message ("'0' jobs: expected 1 to 256").
CLI::Option* checkCount(CLI::Option* option, int64_t lo, int64_t hi, const char* unit);

/// A seed: a whole number from 0 to 2^64-1 (CLI11 alone takes "-1" and "99999999999999999999" as 2^64-1).
CLI::Option* checkSeed(CLI::Option* option);

/// A folder the command writes into (--out-dir, --keep): created if missing. false (with "error: FLAG PATH: ..."
/// on `err`) when it is a file or cannot be made; an empty path is fine (the flag was not given).
bool prepareOutputFolder(const char* flag, const std::string& path, std::ostream& err);

/// The cache folder of goldens and built programs when --cache is not given: $TILECRAFT_CACHE, else
/// $XDG_CACHE_HOME/tilecraft, else ~/.cache/tilecraft, else .tilecraft-cache.
std::string defaultCacheDir();

/// The emulator's headers kernels build against: $TILECRAFT_EMU_INCLUDE (an installed copy, say), else this source
/// tree's.
std::string emulatorIncludeDir();

}  // namespace tilecraft::cli
