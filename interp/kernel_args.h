// The arguments a user gives one kernel on the command line (--shape, --attr, --in), checked against the program
// before anything runs: one parser for `tilecraft interp` and `tilecraft run`, so both refuse the same inputs with
// the same messages (docs/cli.md, "Kernel arguments").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "interp/files.h"
#include "interp/interp.h"

namespace tilecraft::interp {

/// The most elements one tensor may have (2^28: 1 GiB of f32); larger shapes are refused, not attempted.
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 28;

struct KernelArgFlags {
  std::vector<std::string> shapes;  // --shape NAME=SIZE
  std::vector<std::string> attrs;   // --attr NAME=VALUE
  std::vector<std::string> inputs;  // NAME=FILE (.npy, else raw little-endian bytes)
  std::string inputFlag = "--in";   // how the command spells the input flag, for messages
};

/// A given input: the bytes as read (what `run` hands the launcher) and the tensor they hold.
struct GivenInput {
  std::string path;                // as the user wrote it
  std::string bytes;               // the whole file
  bool npy = false;                // a .npy file (else raw elements)
  std::vector<int64_t> fileShape;  // a `(..., M, N)` tensor's file of another rank: its shape (else empty)
  HostTensor tensor;
};

struct KernelArgs {
  std::map<std::string, int64_t> dims;                      // every dim() of the module
  std::map<std::string, double> attrs;                      // the attributes given (the rest take defaults)
  std::map<std::string, std::string> attrTexts;             // the same, as the user wrote them (checked)
  std::map<std::string, GivenInput> inputs;                 // by tensor name
  std::map<std::string, std::vector<int64_t>> paramShapes;  // every tensor parameter's shape under `dims`
  /// Tensors declared `(..., M, N)` whose given file has another rank: the file's shape for an input, and for an
  /// output of the same folded shape as such an input, that input's shape (outputs are written in it).
  std::map<std::string, std::vector<int64_t>> fileShapes;
};

/// Every flag checked: NAME=VALUE syntax; names the kernel knows (unknown ones listed with the known ones); no
/// name given twice (both flags named); sizes whole numbers in [0, 2^63) with every tensor within
/// kMaxTensorElements; attributes finite (integers for integer attributes); inputs name tensors the kernel reads
/// (not its outputs), are regular files no larger than the tensor needs, and hold exactly its dtype and shape.
/// nullopt with `error` set (no "error: " prefix) on the first problem.
std::optional<KernelArgs> parseKernelArgs(const CheckedProgram& program, const dsl::KernelInfo& kernel,
                                          const KernelArgFlags& flags, Files& files, std::string* error);

}  // namespace tilecraft::interp
