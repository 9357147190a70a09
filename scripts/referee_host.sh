#!/usr/bin/env bash
# Type-checks an op_host file (OpDef, TilingFunc, InferShape, tiling data) against the real host headers of a CANN
# 8.x toolkit: register/, exe_graph/, graph/, securec.h, toolchain/ from aarch64-linux/include, the error manager
# (common/util/) from its experiment/metadef and tiling/platform/ from the AscendC high-level API folder. The toolkit
# is not part of Tilecraft: point CANN_ROOT at one, e.g.
#   CANN_ROOT=/opt/Ascend/ascend-toolkit/8.1.RC1 scripts/referee_host.sh project/tests/host_probes/op_def.cpp
set -euo pipefail
: "${CANN_ROOT:?set CANN_ROOT to a CANN toolkit folder (the one holding aarch64-linux/)}"
exec g++ -std=c++17 -fsyntax-only -I "$CANN_ROOT/aarch64-linux/include" -I "$CANN_ROOT/aarch64-linux/include/experiment/platform" \
  -I "$CANN_ROOT/aarch64-linux/include/experiment/metadef" \
  -I "$CANN_ROOT/aarch64-linux/ascendc/include/highlevel_api" "$@"
