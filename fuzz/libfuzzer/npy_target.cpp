// libFuzzer target: bytes through the .npy reader (interp/npy.h). A file it accepts must encode back to a file
// that decodes to the same tensor; anything else it must refuse with an error message, never crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <optional>
#include <string>

#include "interp/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilecraft;
  std::string error;
  std::optional<interp::HostTensor> tensor =
      interp::decodeNpy(std::string(reinterpret_cast<const char*>(data), size), &error);
  if (!tensor) {
    if (error.empty()) {
      std::fprintf(stderr, "decodeNpy refused the file without saying why\n");
      std::abort();
    }
    return 0;
  }
  std::string again = interp::encodeNpy(*tensor);
  std::optional<interp::HostTensor> back = interp::decodeNpy(again, &error);
  // Compared as encodings: a NaN element is not equal to itself as a double.
  if (!back || interp::encodeNpy(*back) != again) {
    std::fprintf(stderr, "an accepted .npy does not round-trip: %s\n", error.c_str());
    std::abort();
  }
  return 0;
}
