// Never finishes: the CLI's --timeout must stop it.
#include "kernel_operator.h"

int main() {
  volatile unsigned long n = 0;
  while (true) n = n + 1;
}
