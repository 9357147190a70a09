// A small hand-built kernel for IR and pass tests: z = x + y over one split and one tile loop, the shape the
// lowering produces for examples/elementwise/add.tile, built directly so tests do not depend on the front
// end.
#pragma once

#include "ir/builder.h"
#include "ir/ir.h"

namespace tilecraft::ir::testing {

struct AddKernel {
  Kernel k;
  uint32_t n = 0, split = 0, loop = 0;
  BufferId a = 0, b = 0, c = 0;
  NodeId copyin = 0, compute = 0, copyout = 0, tileLoop = 0, add = 0, loadA = 0, store = 0;

  explicit AddKernel(int64_t tile = 4096, DType dtype = DType::F16) {
    k.name = "add";
    Builder bl(k);
    n = bl.addVar({"N", Var::Kind::Dim, DType::I64, 0, kNone});
    for (const char* name : {"x", "y", "z"}) {
      Param p;
      p.name = name;
      p.role = name[0] == 'z' ? TensorRole::Out : TensorRole::In;
      p.dtype = dtype;
      p.shape = {Extent{Extent::Kind::Dim, 0, n}};
      k.params.push_back(p);
    }
    k.body = bl.block();
    split = bl.addSplit({"part", false, 48});
    bl.append(k.body, bl.coreSplit(split, bl.varRef(n), 48));
    loop = bl.addLoop({"t", true});
    tileLoop = bl.tileLoop(loop, bl.splitField(split, Op::Start), bl.splitField(split, Op::Len), tile, 2);
    bl.append(k.body, tileLoop);
    std::vector<Extent> shape = {Extent{Extent::Kind::Tile, tile, loop}};
    a = bl.addBuffer("a", Mem::UB, dtype, shape);
    b = bl.addBuffer("b", Mem::UB, dtype, shape);
    c = bl.addBuffer("c", Mem::UB, dtype, shape);
    std::vector<GmIndex> at = {GmIndex{GmIndex::Kind::Tile, loop, kNone, {}}};
    copyin = bl.stage(Stage::CopyIn);
    loadA = bl.load(a, 0, at, 0);
    bl.append(copyin, loadA);
    bl.append(copyin, bl.load(b, 1, at, 0));
    compute = bl.stage(Stage::Compute);
    add = bl.binary(Op::Add, c, a, b);
    bl.append(compute, add);
    copyout = bl.stage(Stage::CopyOut);
    store = bl.store(2, at, c, false);
    bl.append(copyout, store);
    for (NodeId s : {copyin, compute, copyout}) bl.append(tileLoop, s);
  }
};

}  // namespace tilecraft::ir::testing
