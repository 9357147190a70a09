// Host probe: what cann-ops' shared op_host headers (log/inner/dfx_base.h and its neighbours, which NPUKernelBench's
// answers include through --include) take from CANN beside the op API: securec's bounds-checked calls, the slog
// macros, the error manager's reports, shape ranges and the type/format names.
#include "common/util/error_manager/error_manager.h"
#include "exe_graph/runtime/infer_shape_range_context.h"
#include "graph/utils/type_utils.h"
#include "securec.h"
#include "toolchain/slog.h"

inline int probeSecurec(char* dst, size_t n, const char* src) {
  errno_t rc = memcpy_s(dst, n, src, 1);
  rc += memset_s(dst, n, 0, n);
  rc += strcpy_s(dst, n, src);
  rc += strncpy_s(dst, n, src, 1);
  rc += strcat_s(dst, n, src);
  return rc + snprintf_s(dst, n, n - 1, "%s", src) + sprintf_s(dst, n, "%d", 1);
}

inline void probeSlog(int value) {
  if (CheckLogLevel(OP, DLOG_DEBUG) == 1) dlog_debug(OP, "value %d", value);
  dlog_error(OP, "value %d", value);
  DlogSub(OP, "TILING", DLOG_WARN, "value %d", value);
}

inline std::string probeErrorManager() {
  REPORT_INNER_ERROR("E89999", "bad tiling %d", 1);
  return ErrorManager::GetInstance().GetErrorMessage();
}

inline int64_t probeRanges(gert::InferShapeRangeContext* context) {
  const gert::Range<gert::Shape>* in = context->GetInputShapeRange(0);
  gert::Range<gert::Shape>* out = context->GetOutputShapeRange(0);
  *out->GetMin() = *in->GetMin();
  *out->GetMax() = *in->GetMax();
  return out->GetMax()->GetDim(0);
}

inline std::string probeNames() {
  return ge::TypeUtils::DataTypeToSerialString(ge::DT_FLOAT16) + ge::TypeUtils::FormatToSerialString(ge::FORMAT_ND) +
         std::to_string(ge::GetPrimaryFormat(ge::FORMAT_ND));
}
