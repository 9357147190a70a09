// Does not compile.
#include "kernel_operator.h"

int main() {
  return undeclaredThing;
}
