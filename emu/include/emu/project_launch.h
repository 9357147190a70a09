// The kernel half of `tilecraft project run`: the launch of a custom operator's kernel as CANN's runtime does it,
// with the tiling TilingFunc wrote, its tiling key (TILING_KEY_IS), and a workspace of the size it asked for.
// Arguments: MODE BLOCKDIM TILINGKEY TILING.bin WORKSPACE_BYTES, then per tensor argument IN|- OUT BYTES (the
// buffer is read from IN, GM-allocated, and written to OUT after the launch).
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

inline int usage() {
  std::fputs("usage: MODE BLOCKDIM TILINGKEY TILING WORKSPACE_BYTES {IN|- OUT BYTES}...\n", stderr);
  return 2;
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
  if (argc != 6 + 3 * tensors) return usage();
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
  std::vector<size_t> sizes;
  for (int t = 0; t < tensors; ++t) {
    size_t bytes = std::strtoull(argv[6 + 3 * t + 2], nullptr, 10);
    // aclrtMalloc's rule: the size rounded up to 32 bytes, plus 32 (so a kernel's aligned tail read stays inside).
    auto* p = static_cast<uint8_t*>(AscendC::GmAlloc((bytes + 31) / 32 * 32 + 32));
    std::string in = argv[6 + 3 * t];
    if (in != "-" && !readInto(in, p, bytes)) {
      std::fprintf(stderr, "error: cannot read %zu bytes from '%s'\n", bytes, in.c_str());
      return 2;
    }
    args.push_back(p);
    sizes.push_back(bytes);
  }
  // The workspace CANN passes holds the system part (GetLibApiWorkSpaceSize) the host added to workspace[0].
  args.push_back(static_cast<GM_ADDR>(AscendC::GmAlloc(workspaceBytes ? workspaceBytes : 32)));
  auto* tilingGm = static_cast<uint8_t*>(AscendC::GmAlloc(tiling.empty() ? 32 : tiling.size()));
  if (!tiling.empty()) std::memcpy(tilingGm, tiling.data(), tiling.size());
  args.push_back(tilingGm);
  ICPU_SET_TILING_KEY(tilingKey);
  launch(args.data(), blockDim);
  for (int t = 0; t < tensors; ++t) {
    std::ofstream out(argv[6 + 3 * t + 1], std::ios::binary);
    out.write(reinterpret_cast<const char*>(args[static_cast<size_t>(t)]), static_cast<std::streamsize>(sizes[t]));
    if (!out) {
      std::fprintf(stderr, "error: cannot write '%s'\n", argv[6 + 3 * t + 1]);
      return 2;
    }
  }
  return 0;
}

}  // namespace tcemu::project
