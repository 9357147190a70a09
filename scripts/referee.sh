#!/usr/bin/env bash
# Type-checks a kernel file against the real AscendC headers of a CANN 8.x toolkit in CPU-debug mode, the way
# tikicpulib's CMake target compiles kernels. The toolkit is not part of Tilecraft: point CANN_ROOT at one, e.g.
#   CANN_ROOT=/opt/Ascend/ascend-toolkit/8.1.RC1 scripts/referee.sh samples/add_custom.cpp
set -euo pipefail
: "${CANN_ROOT:?set CANN_ROOT to a CANN toolkit folder (the one holding aarch64-linux/ and tools/)}"
inc="$CANN_ROOT/aarch64-linux/ascendc/include"
exec g++ -std=c++17 -fsyntax-only -D_GLIBCXX_USE_CXX11_ABI=0 -D__CCE_KT_TEST__=1 -DASCENDC_CPU_DEBUG=1 \
  -DASCENDC_DEBUG=1 -D__CCE_AICORE__=220 -D__DAV_C220__ \
  -I "$inc/basic_api" -I "$inc/basic_api/interface" -I "$inc/basic_api/impl" -I "$inc/highlevel_api" \
  -I "$inc/highlevel_api/lib" -I "$inc/highlevel_api/lib/matmul" \
  -I "$CANN_ROOT/tools/tikicpulib/lib/include" -I "$CANN_ROOT/aarch64-linux/include" "$@"
