// A test project's kernel: block b computes z[b] = x[b] + alpha * y[b] + bias[0]. x and z are read through
// AscendC::ListTensorDesc, y through the raw layout (the pointer table's offset in word 0), as many CANN
// kernels do; a tensor whose shape disagrees with the tiling is left unwritten.
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void list_axpy(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GET_TILING_DATA(t, tiling);
  uint32_t block = static_cast<uint32_t>(GetBlockIdx());
  ListTensorDesc xList(reinterpret_cast<__gm__ void*>(x));
  ListTensorDesc zList;
  zList.Init(reinterpret_cast<__gm__ void*>(z));
  if (xList.GetSize() != t.count || zList.GetSize() != t.count) return;
  uint64_t shape[8] = {0};
  TensorDesc<DTYPE_X> xDesc;
  xDesc.SetShapeAddr(shape);
  xList.GetDesc(xDesc, block);
  uint64_t elements = 1;
  for (uint32_t d = 0; d < xDesc.GetDim(); ++d) elements *= xDesc.GetShape(d);
  if (xDesc.GetIndex() != block || elements != t.lengths[block]) return;
  __gm__ uint64_t* yWords = reinterpret_cast<__gm__ uint64_t*>(y);
  __gm__ uint64_t* yPointers = yWords + (*yWords >> 3);
  GlobalTensor<DTYPE_X> xGm = xDesc.GetDataObj();
  GlobalTensor<DTYPE_Y> yGm, biasGm;
  GlobalTensor<DTYPE_Z> zGm;
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_Y*>(yPointers[block]), elements);
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_BIAS*>(bias), 1);
  zGm.SetGlobalBuffer(zList.GetDataPtr<DTYPE_Z>(block), elements);
  float b = biasGm.GetValue(0);
  for (uint32_t i = 0; i < elements; ++i) zGm.SetValue(i, xGm.GetValue(i) + t.alpha * yGm.GetValue(i) + b);
}
