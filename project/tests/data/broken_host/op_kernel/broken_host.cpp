// A test project's kernel that is never reached.
#include "kernel_operator.h"
