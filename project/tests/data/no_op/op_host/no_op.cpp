// A test project whose op_host registers no operator (no OP_ADD).
#include "register/op_def_registry.h"
