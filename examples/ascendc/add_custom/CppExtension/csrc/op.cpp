// The PyTorch binding MultiKernelBench builds into custom_ops_lib: the operator as a torch op on the NPU through its
// generated aclnn API. It needs torch_npu and CANN; Tilecraft keeps it for reading and does not build it.
#include <torch/extension.h>
#include <torch/library.h>

#include "pytorch_npu_helper.hpp"

at::Tensor add_custom_impl_npu(const at::Tensor& x, const at::Tensor& y) {
  at::Tensor z = at::empty_like(x);
  EXEC_NPU_CMD(aclnnAddCustom, x, y, z);
  return z;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) { m.impl("add_custom", &add_custom_impl_npu); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("add_custom", &add_custom_impl_npu, "z = x + y on the NPU"); }
