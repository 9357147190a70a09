// NumPy .npy (format 1.0) encoding and decoding, in memory: the caller owns the files.
//   f16 '<f2', f32 '<f4', i8 '|i1', u8 '|u1', i16 '<i2', i32 '<i4', i64 '<i8', bool '|b1';
//   bf16 has no NumPy dtype: it is written as raw 2-byte data with descr '<V2' (what NumPy writes for an
//   ml_dtypes.bfloat16 array; view it with .view(ml_dtypes.bfloat16) or .view('<u2')), and '<V2' reads as bf16.
#pragma once

#include <optional>
#include <string>

#include "interp/tensor.h"

namespace tilecraft::interp {

std::string encodeNpy(const HostTensor& tensor);

/// nullopt with `error` set (what is wrong, with the offending header text or byte counts) on a bad file.
std::optional<HostTensor> decodeNpy(const std::string& bytes, std::string* error);

/// The descr string of a dtype, e.g. "<f2".
const char* npyDescr(dsl::DType dtype);

}  // namespace tilecraft::interp
