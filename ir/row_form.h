// When a vector op over an (r, N) tile may be one instruction over its contiguous rows (VecForm::Flat) instead of
// one per row: the facts the legalize pass decides from and the verifier checks, kept in one place.
#pragma once

#include "ir/ir.h"

namespace tilecraft::ir {

/// Elements of one 32-byte UB block: the unit of a row's pitch.
int64_t blockElements(DType dtype);

/// The op is an elementwise vector op (Cast, Unary, Binary, BinaryScalar, Fill, UB -> UB Copy) whose operands all
/// have dst's shape and row pitch, with an innermost extent that is a constant or a dim (a tile loop's extent has
/// its size's pitch, wider than its rows in the tail tile) and more than one row possible.
bool flatLayout(const Kernel& k, const Node& n);

/// Lanes of one 256-byte vector repeat.
int64_t repeatLanes(DType dtype);

/// The op is a reduction along the last axis of a multi-row UB tile whose rows fit one repeat (the innermost
/// extent's bound at most repeatLanes), which WholeReduceSum/Max/Min computes a row per repeat: sum and mean of
/// f32 (16-bit sums round once on the scalar unit instead, as the reference does), max and min of f16 and f32.
bool repeatReduce(const Kernel& k, const Node& n);

/// The buffer's rows have no padding: a constant innermost extent of whole 32-byte blocks.
bool rowsUnpadded(const Buffer& b);

/// The op writes every row's padding as well as its elements: a flat op, or a load from GM that copies whole
/// innermost rows of the tensor with DataCopyPad (which pads each row up to the pitch) or DataCopy (rows of whole
/// blocks, no padding).
bool writesRowPadding(const Kernel& k, const Node& n);

/// The op is a Compare the vector unit can run over whole 256-byte repeats (VecForm::Padded), as the A2 Compare
/// requires: f16/f32 operands (int32 for ==) in UB of the mask's shape, each row with room for its elements rounded
/// up to a repeat (one row: the buffer at its bound; several: a constant row pitch), and a mask with room for those
/// bits. The lanes past a row's last block are filled before the Compare reads them, so it reads nothing unwritten.
bool paddedCompare(const Kernel& k, const Node& n);

/// The op is a Select whose mask bits cover whole repeats of the Select's own type: every writer of the mask is a
/// padded Compare whose repeats hold a whole number of the Select's, so a count-mode Select reads only written bits.
bool wholeMaskSelect(const Kernel& k, const Node& n, const std::vector<NodeId>& maskWriters);

}  // namespace tilecraft::ir
