// Breaks a (stub) emulator check on line 6.
#include "kernel_operator.h"

int main() {
  std::printf("before the launch\n");
  stubCheckFailed(__FILE__, __LINE__, "DataCopy reads past the end of x");
}
