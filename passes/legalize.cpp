// legalize: instruction selection as an IR decision. Each vector op on a multi-row tile gets its form (ir::VecForm):
// one count-mode instruction over the tile's contiguous rows, padding included, where that is safe (or, with a
// per-row column operand, one instruction a row per repeat reading the column spread across its blocks); one repeated
// WholeReduce for last-axis reductions of short rows; a Compare over whole repeats (and the Selects it feeds) where
// its rows have room for them; else one per row. The emitter prints the form it is given.
#include <vector>

#include "ir/row_form.h"
#include "passes/passes.h"

namespace tilecraft::passes {

void legalize(ir::Kernel& kernel, PassContext&) {
  TreeIndex tree = indexTree(kernel);
  std::vector<std::vector<ir::NodeId>> writers(kernel.buffers.size());
  std::vector<ir::NodeId> candidates;
  for (ir::NodeId id : tree.order) {
    ir::Node& n = kernel.node(id);
    if (!ir::isTileOpKind(n.kind) || n.dst == ir::kNone) continue;
    writers[n.dst].push_back(id);
    if (ir::repeatReduce(kernel, n)) {
      // WholeReduce needs no workspace: the buffer the checker reserved for ReduceSum goes unused (and unplanned).
      n.form = ir::VecForm::Repeat;
      n.work = ir::kNone;
    }
    if (ir::flatLayout(kernel, n)) {
      n.form = ir::VecForm::Flat;  // optimistic; withdrawn below where a source's padding may be unwritten
      candidates.push_back(id);
    } else if (ir::columnLayout(kernel, n) && ir::columnCalls(kernel, n) <= ir::columnRowBound(kernel, n)) {
      // A per-row column operand costs the scalar unit a read and an instruction a row; spread across its block,
      // it is read by one instruction a 64-lane slice of every row (optimistically over their padding too, as flat
      // ops). With fewer rows than slices, the row-by-row form issues fewer instructions and stays.
      n.form = ir::VecForm::ColumnFlat;
      candidates.push_back(id);
    }
  }
  // A flat op reads its sources' row padding, so each source must have padding written by every one of its
  // writers. Writers are themselves candidates, so the forms are the greatest fixed point: start from all flat and
  // withdraw until nothing changes. Every buffer is written before it is read (the verifier's rule), so the first
  // write of a buffer whose writers all pass writes its padding.
  for (bool changed = true; changed;) {
    changed = false;
    for (ir::NodeId id : candidates) {
      ir::Node& n = kernel.node(id);
      if (n.form != ir::VecForm::Flat && n.form != ir::VecForm::ColumnFlat) continue;
      bool column = n.form == ir::VecForm::ColumnFlat;
      for (ir::BufferId s : n.srcs) {
        if (ir::rowsUnpadded(kernel.buffer(s)) || (column && s != ir::columnTileOperand(kernel, n))) continue;
        for (ir::NodeId w : writers[s]) {
          if (ir::writesRowPadding(kernel, kernel.node(w))) continue;
          n.form = column ? ir::VecForm::Column : ir::VecForm::Rows;
          changed = true;
        }
      }
    }
  }
  // Row statistics ((r, 1) columns) whose padding is not known written: each row's first lane, 8 rows a repeat.
  for (ir::NodeId id : candidates) {
    ir::Node& n = kernel.node(id);
    if (n.form == ir::VecForm::Rows && ir::columnLanes(kernel, n)) n.form = ir::VecForm::FirstLanes;
  }
  // The A2 Compare works on whole 256-byte repeats, so a row that ends inside one leaves a tail the scalar unit
  // would finish element by element (about 40 ns each); where the rows have room, the last repeat is computed
  // whole instead. A Select then needs no tail of its own when every mask it reads was written that way.
  for (ir::NodeId id : tree.order) {
    ir::Node& n = kernel.node(id);
    if (ir::paddedCompare(kernel, n)) n.form = ir::VecForm::Padded;
  }
  for (ir::NodeId id : tree.order) {
    ir::Node& n = kernel.node(id);
    if (n.kind == ir::NodeKind::Select && ir::wholeMaskSelect(kernel, n, writers[n.srcs[0]])) {
      n.form = ir::VecForm::Padded;
    }
  }
}

}  // namespace tilecraft::passes
