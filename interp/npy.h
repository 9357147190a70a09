// NumPy .npy (format 1.0) encoding and decoding, in memory: the caller owns the files.
//   f16 '<f2', f32 '<f4', i8 '|i1', u8 '|u1', i16 '<i2', i32 '<i4', i64 '<i8', bool '|b1';
//   bf16 has no NumPy dtype: it is written as raw 2-byte data with descr '<V2' (what NumPy writes for an
//   ml_dtypes.bfloat16 array; view it with .view(ml_dtypes.bfloat16) or .view('<u2')), and '<V2' reads as bf16.
//   complex64 '<c8' has no dsl::DType (the DSL has no complex type): callers that take it (`tilecraft project run`,
//   whose kernels see GM bytes) ask for it, and get what the array is in memory, f32 with a trailing dimension 2
//   (each element's real and imaginary parts). complex128 '<c16' is refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interp/tensor.h"

namespace tilecraft::interp {

/// `complex64`: `tensor` is f32 whose last dimension is 2, (real, imaginary) pairs, written as a '<c8' array of the
/// dimensions before it.
std::string encodeNpy(const HostTensor& tensor, bool complex64 = false);

/// What a .npy header says, checked: magic, version, a dict with exactly 'descr' (a supported dtype),
/// 'fortran_order' (False) and 'shape' (a tuple of non-negative integers whose product, in bytes, fits `maxBytes`).
struct NpyHeader {
  dsl::DType dtype = dsl::DType::F32;
  std::vector<int64_t> shape;
  size_t dataOffset = 0;   // where the elements start
  uint64_t dataBytes = 0;  // what the shape needs
};

/// The largest .npy header read (NumPy writes at most a few hundred bytes; version 1 can say 64 KiB).
inline constexpr size_t kMaxNpyHeaderBytes = 65535 + 12;

/// The most data a .npy header may claim unless the caller says otherwise.
inline constexpr uint64_t kMaxNpyDataBytes = uint64_t{1} << 40;

/// nullopt with `error` set when the header is malformed or claims more than `maxBytes` of data.
std::optional<NpyHeader> parseNpyHeader(const std::string& bytes, std::string* error,
                                        uint64_t maxBytes = kMaxNpyDataBytes);

/// Elements of `dtype` from raw little-endian bytes (a .bin file), `shape` giving their count; nullopt with `error`
/// set when the byte count is not the shape's, or an i64 is beyond what a double holds exactly.
std::optional<HostTensor> decodeRaw(const std::string& bytes, size_t offset, dsl::DType dtype,
                                    std::vector<int64_t> shape, std::string* error);

/// The size in bytes of one element.
int dtypeBytes(dsl::DType dtype);

/// nullopt with `error` set (what is wrong, with the offending header text or byte counts) on a bad file. A '<c8'
/// array is read only when `complex64` is given (as f32 with a trailing 2, *complex64 set; false for other files).
std::optional<HostTensor> decodeNpy(const std::string& bytes, std::string* error, bool* complex64 = nullptr);

/// The descr string of a dtype, e.g. "<f2".
const char* npyDescr(dsl::DType dtype);

}  // namespace tilecraft::interp
