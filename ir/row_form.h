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

/// The op writes every row's padding as well as its elements: a flat (or column-flat) op, or a load from GM that copies whole
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

/// The op is a binary op (add, sub, mul, div, max, min) of f32 tiles in UB, one operand of dst's shape and row
/// pitch and the other a column of it ((..., r, 1)), that VecForm::Column can issue: rows up to a pitch of 255
/// blocks (the repeat stride's range) and a column buffer with room for its rows rounded up to 8, as Brcb writes
/// whole groups of 8 blocks. The column's blocks are rewritten in place (its values spread across their padding),
/// which no reader of a column sees: every one reads the first element of each block.
bool columnLayout(const Kernel& k, const Node& n);

/// The op is an elementwise op whose operands are all columns ((..., r, 1) of one shape, several rows) of one f16 or
/// f32 type in UB, with a level-0 (mask and repeat) form: a basic unary op (exp, ln, abs, sqrt, rsqrt, reciprocal,
/// relu), a scalar op (adds, muls, maxs, mins, leaky_relu) or a binary op (add, sub, mul, div, max, min), and buffers
/// that hold their rows rounded up to 8 (a repeat spans 8 rows' blocks), which VecForm::FirstLanes runs over each
/// row's first element, eight rows a repeat, instead of an instruction a row.
bool columnLanes(const Kernel& k, const Node& n);

/// A column-form op's calls per 255 rows (64-lane slices of a row at its bound) and its rows at their bound: the
/// legalize pass takes the form only where it issues no more instructions than one per row.
int64_t columnCalls(const Kernel& k, const Node& n);
int64_t columnRowBound(const Kernel& k, const Node& n);

/// The operand of a column-form op that is not the column.
BufferId columnTileOperand(const Kernel& k, const Node& n);

}  // namespace tilecraft::ir
