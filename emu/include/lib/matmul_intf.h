// The high-level Matmul API (CANN's lib/matmul_intf.h): MatmulType, Matmul<A, B, C, BIAS, MM_CFG>, REGIST_MATMUL_OBJ.
// Kernels include it after kernel_operator.h. See lib/matmul/matmul_impl.h for what the emulator computes and traces.
#pragma once

#include "kernel_operator.h"
#include "lib/matmul/matmul_config.h"
#include "lib/matmul/matmul_impl.h"

namespace tcemu::mm {

inline void initObjs(AscendC::TPipe*) {}
template <class MM>
inline void initObjs(AscendC::TPipe*, MM&) {}
template <class MM, class... Rest>
inline void initObjs(AscendC::TPipe* pipe, MM& mm, const TCubeTiling* tiling, Rest&&... rest) {
  if (tiling) mm.Init(tiling, pipe);
  initObjs(pipe, std::forward<Rest>(rest)...);
}

// REGIST_MATMUL_OBJ: checks the workspace and Inits each (object, tiling) pair. Returns true on an AIC core of a MIX
// launch: there CANN's macro runs the KFC server loop serving the AIV clients and then returns from the kernel, so
// the AIC never runs the kernel's vector code. The emulator computes on the calling AIV core instead, so the AIC
// just returns. An AIC_MODE launch (cube-only kernel, ASCENDC_CUBE_ONLY) computes on the AIC itself.
template <class... Objs>
inline bool registerObjs(const SrcLoc& loc, AscendC::TPipe* pipe, GM_ADDR workspace, Objs&&... objs) {
  if (workspace == nullptr) {
    fail(loc,
         "REGIST_MATMUL_OBJ with a null system workspace: the matmul client and server exchange messages "
         "through it; hint: pass GetSysWorkSpacePtr() after SetSysWorkspace(workspace), and reserve "
         "GetLibApiWorkSpaceSize() bytes of workspace on the host");
  }
  bool mix = g_kernelMode == KernelMode::MIX_MODE || g_kernelMode == KernelMode::MIX_AIC_1_1;
  if (mix && onCubeCore()) return true;
  initObjs(pipe, std::forward<Objs>(objs)...);
  return false;
}

}  // namespace tcemu::mm

#ifdef ASCENDC_CUBE_ONLY
#define REGIST_CUBE_OBJ(tpipe, workspace, ...) \
  (void)::tcemu::mm::registerObjs(::tcemu::SrcLoc::current(), tpipe, workspace, __VA_ARGS__)
#else
#define REGIST_CUBE_OBJ(tpipe, workspace, ...) \
  if (::tcemu::mm::registerObjs(::tcemu::SrcLoc::current(), tpipe, workspace, __VA_ARGS__)) return
#endif
#define REGIST_MATMUL_OBJ REGIST_CUBE_OBJ
#define REGIST_MATMUL_OBJ_STATIC REGIST_CUBE_OBJ

// CANN's matmul headers alias the namespace (lib/matmul/matmul.h), and kernels write `using namespace matmul;`.
namespace matmul = AscendC;
