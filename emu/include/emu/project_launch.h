// The kernel half of `tilecraft project run`: the launch of a custom operator's kernel as CANN's runtime does it,
// with the tiling TilingFunc wrote, its tiling key (TILING_KEY_IS), and a workspace of the size it asked for.
// Arguments: MODE BLOCKDIM TILINGKEY TILING.bin WORKSPACE_BYTES, then per kernel argument either one tensor,
// `IN|- OUT BYTES` (the buffer is read from IN, GM-allocated, and written to OUT after the launch), or a tensor list
// (an msopgen DYNAMIC parameter), `list N` and N times `IN|- OUT BYTES RANK DIMS...`: the kernel then gets the
// list's descriptor (listTensorLayout), as CANN passes it. IN `@K` (`@K.E`) makes the tensor the K-th argument's
// buffer (its E-th tensor's): a ref output, which CANN binds to its same-named input; the kernel sees one address
// twice.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace tcemu::project {

using Launch = void (*)(GM_ADDR* args, uint32_t blockDim);

// The GM layout CANN passes for a tensor list, in 64-bit words (what AscendC::ListTensorDesc decodes):
//   word 0: the byte offset of the pointer table from the start;
//   per tensor i: (dim | i << 32), then its dim sizes (a 0-dim tensor: one 0xffffffff word instead);
//   then the tensors' data pointers, in order.
inline std::vector<uint64_t> listTensorLayout(const std::vector<std::vector<uint64_t>>& shapes,
                                              const std::vector<uint64_t>& pointers) {
  std::vector<uint64_t> words{0};
  for (size_t i = 0; i < shapes.size(); ++i) {
    words.push_back(shapes[i].size() | (static_cast<uint64_t>(i) << 32));
    if (shapes[i].empty()) words.push_back(0xffffffffu);
    words.insert(words.end(), shapes[i].begin(), shapes[i].end());
  }
  words[0] = words.size() * sizeof(uint64_t);
  words.insert(words.end(), pointers.begin(), pointers.end());
  return words;
}

inline int usage() {
  std::fputs(
      "usage: MODE BLOCKDIM TILINGKEY TILING WORKSPACE_BYTES {IN|-|null|@K OUT BYTES | list N {IN|-|@K.E OUT BYTES "
      "RANK "
      "DIMS...}*N}...\n",
      stderr);
  return 2;
}

// One tensor of a kernel argument.
struct LaunchTensor {
  std::string in, out;
  size_t bytes = 0;
  std::vector<uint64_t> dims;
  uint8_t* data = nullptr;
};

struct LaunchArg {
  bool list = false;
  std::vector<LaunchTensor> tensors;
};

// The kernel arguments of the command line from argv[first]; false on a malformed one.
inline bool parseLaunchArgs(int argc, char** argv, int first, int count, std::vector<LaunchArg>& args) {
  int at = first;
  auto next = [&](std::string& word) {
    if (at >= argc) return false;
    word = argv[at++];
    return true;
  };
  auto number = [&](uint64_t& value) {
    std::string word;
    if (!next(word) || word.empty() || word.find_first_not_of("0123456789") != std::string::npos) return false;
    value = std::strtoull(word.c_str(), nullptr, 10);
    return true;
  };
  for (int a = 0; a < count; ++a) {
    LaunchArg arg;
    uint64_t n = 1;
    if (at < argc && std::string(argv[at]) == "list") {
      ++at;
      arg.list = true;
      if (!number(n)) return false;
    }
    for (uint64_t k = 0; k < n; ++k) {
      LaunchTensor t;
      uint64_t bytes = 0, rank = 0;
      if (!next(t.in) || !next(t.out) || !number(bytes)) return false;
      t.bytes = bytes;
      if (arg.list) {
        if (!number(rank)) return false;
        t.dims.resize(rank);
        for (uint64_t& d : t.dims)
          if (!number(d)) return false;
      }
      arg.tensors.push_back(t);
    }
    args.push_back(arg);
  }
  return at == argc;
}

inline bool readInto(const std::string& path, uint8_t* dst, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.eof() && !in.good()) return false;
  if (data.size() != bytes) return false;
  if (bytes) std::memcpy(dst, data.data(), bytes);
  return true;
}

inline int launchMain(int argc, char** argv, int tensors, Launch launch) {
  std::vector<LaunchArg> parsed;
  if (argc < 6 || !parseLaunchArgs(argc, argv, 6, tensors, parsed)) return usage();
  std::string mode = argv[1];
  if (mode == "aiv") AscendC::SetKernelMode(KernelMode::AIV_MODE);
  else if (mode == "aic") AscendC::SetKernelMode(KernelMode::AIC_MODE);
  else if (mode == "mix11") AscendC::SetKernelMode(KernelMode::MIX_AIC_1_1);
  else if (mode == "mix") AscendC::SetKernelMode(KernelMode::MIX_MODE);
  else return usage();
  uint32_t blockDim = static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10));
  uint64_t tilingKey = std::strtoull(argv[3], nullptr, 10);
  std::ifstream tilingFile(argv[4], std::ios::binary);
  std::vector<char> tiling((std::istreambuf_iterator<char>(tilingFile)), std::istreambuf_iterator<char>());
  size_t workspaceBytes = std::strtoull(argv[5], nullptr, 10);
  std::vector<GM_ADDR> args;
  for (LaunchArg& arg : parsed) {
    std::vector<uint64_t> pointers;
    std::vector<std::vector<uint64_t>> shapes;
    for (LaunchTensor& t : arg.tensors) {
      if (t.in == "null" && !arg.list) {  // an optional input left out: CANN passes a null address
        t.bytes = 0;
        pointers.push_back(0);
        shapes.push_back(t.dims);
        continue;
      }
      if (t.in.size() > 1 && t.in[0] == '@') {
        char* end = nullptr;
        size_t k = std::strtoull(t.in.c_str() + 1, &end, 10), e = *end == '.' ? std::strtoull(end + 1, nullptr, 10) : 0;
        const LaunchTensor* shared = k < args.size() && e < parsed[k].tensors.size() ? &parsed[k].tensors[e] : nullptr;
        if (!shared || shared->bytes != t.bytes || !shared->data) {
          std::fprintf(stderr, "error: %s: no earlier tensor of %zu bytes to share\n", t.in.c_str(), t.bytes);
          return 2;
        }
        t.data = shared->data;
        pointers.push_back(reinterpret_cast<uint64_t>(t.data));
        shapes.push_back(t.dims);
        continue;
      }
      // aclrtMalloc's rule: the size rounded up to 32 bytes, plus 32 (so a kernel's aligned tail read stays inside).
      t.data = static_cast<uint8_t*>(AscendC::GmAlloc((t.bytes + 31) / 32 * 32 + 32));
      if (t.in != "-" && !readInto(t.in, t.data, t.bytes)) {
        std::fprintf(stderr, "error: cannot read %zu bytes from '%s'\n", t.bytes, t.in.c_str());
        return 2;
      }
      pointers.push_back(reinterpret_cast<uint64_t>(t.data));
      shapes.push_back(t.dims);
    }
    if (!arg.list) {
      args.push_back(arg.tensors.front().data);
      continue;
    }
    std::vector<uint64_t> words = listTensorLayout(shapes, pointers);
    auto* desc = static_cast<uint8_t*>(AscendC::GmAlloc((words.size() * sizeof(uint64_t) + 31) / 32 * 32));
    std::memcpy(desc, words.data(), words.size() * sizeof(uint64_t));
    args.push_back(desc);
  }
  // The workspace CANN passes holds the system part (GetLibApiWorkSpaceSize) the host added to workspace[0].
  args.push_back(static_cast<GM_ADDR>(AscendC::GmAlloc(workspaceBytes ? workspaceBytes : 32)));
  auto* tilingGm = static_cast<uint8_t*>(AscendC::GmAlloc(tiling.empty() ? 32 : tiling.size()));
  if (!tiling.empty()) std::memcpy(tilingGm, tiling.data(), tiling.size());
  args.push_back(tilingGm);
  ICPU_SET_TILING_KEY(tilingKey);
  launch(args.data(), blockDim);
  for (const LaunchArg& arg : parsed) {
    for (const LaunchTensor& t : arg.tensors) {
      std::ofstream out(t.out, std::ios::binary);
      if (t.data) out.write(reinterpret_cast<const char*>(t.data), static_cast<std::streamsize>(t.bytes));
      if (!out) {
        std::fprintf(stderr, "error: cannot write '%s'\n", t.out.c_str());
        return 2;
      }
    }
  }
  return 0;
}

}  // namespace tcemu::project
