#pragma once
// The sources `project run` generates and builds: the host and kernel drivers, and the op_kernel file as bisheng's
// device build reads it, in a form g++ accepts.

#include <cstddef>
#include <string>

namespace tilecraft::project {

// The host half: the emulator's host driver, linked with op_host's sources.
std::string hostDriverSource();

// The kernel half: includes `kernelInclude` (the op_kernel file, or its device copy) with its tiling struct and
// launches the entry on `tensors` tensor arguments plus workspace and tiling, with the run's sync and fault modes.
std::string kernelDriverSource(const std::string& kernelInclude, const std::string& entry, size_t tensors,
                               bool autoSync, bool faultsAsWarnings);

// bisheng compiles an op_kernel file as one heterogeneous source, so the host-side launch stub some answers keep
// beside the kernel (`add_layer_norm_grad<<<blockDim, l2ctrl, stream>>>(...)`, under `#ifndef __CCE_KT_TEST__`,
// which the device build compiles) is valid there. The launch configuration `<<<...>>>` is blanked, leaving a call
// of the kernel function with the same arguments; lines and columns stay where they were, so diagnostics point
// at the file as written. Text without `<<<` comes back unchanged.
std::string withoutLaunchConfigs(const std::string& text);

}  // namespace tilecraft::project
