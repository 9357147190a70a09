// Host probe: platform/platform_info.h brings CANN's global `using std::vector/string/map` (op_host code such as
// NPUKernelBench's ScatterList writes `vector<int64_t>` unqualified).
#include "platform/platform_info.h"

inline size_t probePlatformNames() {
  vector<int64_t> shape{2, 3};
  string name = "x";
  map<string, int64_t> dims{{name, shape[1]}};
  return dims.size() + shape.size();
}

inline uint64_t probePlatformInfos(fe::PlatFormInfos* infos) {
  uint64_t ub = 0;
  infos->GetLocalMemSize(fe::LocalMemType::UB, ub);
  return ub + infos->GetCoreNum();
}
