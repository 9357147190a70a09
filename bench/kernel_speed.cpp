// The compiler's speed benchmark (docs/compiler.md, "Kernel speed"): a fixed set of Tile DSL kernels, one or more
// per category at realistic shapes, each compiled, run on the emulator, its outputs compared with the reference
// interpreter's (a fast wrong kernel is not a result), and its trace simulated on the performance model. Prints
// simulated device time over the hardware limit of the case and the median of those ratios.
//   build/bench/kernel_speed [--filter NAME,NAME...] [--no-sandbox]
// The limit is perf::computeLimit's (the one the harness reports), on the work every kernel must do: the bytes of
// its GM tensors read and written once, and for matmul the cube FLOPs; its pessimistic variant (reads plus writes
// share the HBM peak), since the simulator models one shared channel.
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "codegen/driver.h"
#include "interp/files.h"
#include "interp/kernel_args.h"
#include "interp/npy.h"
#include "interp/oracle.h"
#include "perf/arch.h"
#include "perf/limit.h"
#include "perf/timeline.h"
#include "perf/trace.h"
#include "runner/service.h"
#include "support/files.h"

namespace {

namespace fs = std::filesystem;
using namespace tilecraft;

struct SpeedCase {
  const char* category = "";
  const char* file = "";  // under bench/kernels
  std::vector<std::string> shapes;
  std::vector<std::string> attrs;  // NAME=VALUE for attributes without a default
  // Dims whose product times 2 is the case's cube FLOPs (M, N, K of a matmul); empty: no cube work.
  std::vector<std::string> flopDims;
  bool check = true;  // the reference interpreter is too slow for 1024^3 matmuls
};

SpeedCase vec(const char* category, const char* file, std::vector<std::string> shapes,
              std::vector<std::string> attrs = {}) {
  SpeedCase c;
  c.category = category;
  c.file = file;
  c.shapes = std::move(shapes);
  c.attrs = std::move(attrs);
  return c;
}

// A matmul of (M, K) by (K, N): 2 M N K cube FLOPs.
SpeedCase cube(const char* category, const char* file, std::vector<std::string> shapes) {
  SpeedCase c = vec(category, file, std::move(shapes));
  c.flopDims = {"M", "N", "K"};
  c.check = false;
  return c;
}

const std::vector<SpeedCase>& cases() {
  static const std::vector<SpeedCase> all = {
      vec("elementwise", "add.tile", {"N=1048576"}),
      vec("elementwise", "add_rows.tile", {"M=4096", "N=1000"}),
      vec("elementwise", "leaky_relu.tile", {"N=1048576"}),
      vec("elementwise", "gelu_f16.tile", {"M=1024", "N=1024"}),
      vec("broadcast", "bias_add.tile", {"M=2048"}),
      vec("broadcast", "scale_shift.tile", {"M=2048", "N=512"}),
      vec("broadcast", "scale_short_rows.tile", {"M=16384", "N=16"}),
      vec("reduction", "sum_rows.tile", {"M=2048", "N=2048"}),
      vec("reduction", "sum_short_rows.tile", {"M=65536", "N=8"}),
      vec("softmax", "softmax_rows.tile", {"M=1024", "N=1024"}),
      vec("softmax", "softmax_bf16.tile", {"M=4096", "N=256"}),
      vec("normalization", "layer_norm.tile", {"M=1024", "N=4096"}),
      vec("normalization", "rms_norm.tile", {"M=256", "N=8192"}),
      vec("normalization", "norm_short_rows.tile", {"M=32768", "N=32"}),
      vec("loss", "smooth_l1_loss.tile", {"N=1048576"}),
      vec("optimizer", "adam.tile", {"N=983040"}, {"lr=0.001", "beta1=0.9", "beta2=0.999", "eps=1e-8", "step=10"}),
      vec("scan", "cumsum_rows.tile", {"M=512", "N=1024"}),
      vec("pooling", "avg_pool1d.tile", {"N=8", "L=1024", "OL=256", "C=256"}),
      vec("pooling", "max_pool2d_nhwc.tile", {"B=4", "H=64", "W=64", "OH=32", "OW=32", "C=64"}),
      cube("matmul", "matmul.tile", {"M=1024", "N=1024", "K=1024"}),
      cube("matmul", "matmul_bt.tile", {"M=1024", "N=1024", "K=1024"}),
      cube("mixed", "matmul_bias_relu.tile", {"M=1024", "N=1024", "K=1024"}),
      cube("mixed", "matmul_gelu_scale.tile", {"M=1024", "N=1024", "K=1024"}),
  };
  return all;
}

struct Measured {
  double simUs = 0, limitUs = 0;
  std::string bound, shape, dtypes, error;
};

std::string joined(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// The case's hardware limit from its GM tensors (each read or written once) and its cube FLOPs.
perf::LimitResult caseLimit(const dsl::KernelInfo& kernel, const interp::KernelArgs& args, const SpeedCase& c,
                            const perf::ArchSpec& arch, std::string& dtypes) {
  perf::OpWork work;
  std::vector<std::string> names;
  std::optional<dsl::DType> firstFloat;  // the harness's cube type: the first floating input's dtype
  for (const dsl::ParamInfo& p : kernel.params) {
    if (!p.isTensor) continue;
    double elements = 1;
    for (int64_t d : args.paramShapes.at(p.name)) elements *= static_cast<double>(d);
    double bytes = elements * interp::dtypeBytes(p.type.dtype);
    if (p.loaded) work.bytesRead += bytes;
    if (p.stored) work.bytesWritten += bytes;
    std::string name = dsl::dtypeName(p.type.dtype);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    if (p.loaded && dsl::isFloat(p.type.dtype) && !firstFloat) firstFloat = p.type.dtype;
  }
  if (!c.flopDims.empty()) {
    work.cubeFlops = 2;
    for (const std::string& d : c.flopDims) work.cubeFlops *= static_cast<double>(args.dims.at(d));
    work.cubeType = firstFloat == dsl::DType::F32 ? perf::CubeType::F32 : perf::CubeType::F16;
  }
  dtypes = joined(names, ",");
  return perf::computeLimit(work, arch);
}

Measured measure(const SpeedCase& c, runner::BuildRunService& service, const perf::ArchSpec& arch,
                 const fs::path& work) {
  Measured m;
  m.shape = joined(c.shapes, " ");
  std::string file = (fs::path(TILECRAFT_SOURCE_DIR) / "bench" / "kernels" / c.file).string();
  std::string code, kernelName;
  std::ostringstream err;
  if (codegen::compileToAscendC({file, "text"}, code, kernelName, err) != 0) {
    m.error = "compile: " + err.str().substr(0, err.str().find('\n'));
    return m;
  }
  interp::DiskFiles files;
  std::string error;
  std::unique_ptr<interp::CheckedProgram> program = interp::checkProgram(file, *files.read(file, &error));
  const dsl::KernelInfo* kernel = program->kernel(kernelName);
  interp::KernelArgFlags flags;
  flags.shapes = c.shapes;
  flags.attrs = c.attrs;
  std::optional<interp::KernelArgs> args = interp::parseKernelArgs(*program, *kernel, flags, files, &error);
  if (!args) {
    m.error = "arguments: " + error;
    return m;
  }
  perf::LimitResult limit = caseLimit(*kernel, *args, c, arch, m.dtypes);
  m.limitUs = limit.pessimisticS * 1e6;
  m.bound = limit.pessimisticUnits.bottleneck() == "mte2" ? "hbm" : limit.pessimisticUnits.bottleneck();

  fs::path dir = work / kernelName, outputs = dir / "outputs";
  fs::create_directories(outputs);
  fs::path source = dir / (kernelName + ".cpp");
  if (!support::writeFileAtomically(source, code, &error)) {
    m.error = error;
    return m;
  }
  runner::BuildRequest build;
  build.source = source.string();
  runner::BuildResult built = service.build(build);
  if (!built.ok) {
    m.error = "build: " + built.diagnostics.substr(0, built.diagnostics.find('\n'));
    return m;
  }
  interp::OracleCase oracle;
  oracle.request.dims = args->dims;
  oracle.request.attrs = args->attrs;
  oracle.request.inputs = interp::makeInputs(*program, *kernel, args->dims, {}, 1);
  runner::RunRequest run;
  run.program = built.program;
  run.workDir = dir.string();
  run.trace = true;
  run.limits.wallSeconds = 600;
  for (const auto& [name, size] : args->dims) run.args.push_back(fmt::format("{}={}", name, size));
  for (const auto& [name, text] : args->attrTexts) run.args.push_back(name + "=" + text);
  for (const auto& [name, tensor] : oracle.request.inputs) {
    fs::path input = dir / "inputs" / (name + ".npy");
    fs::create_directories(input.parent_path());
    support::writeFileAtomically(input, interp::encodeNpy(tensor), &error);
    run.args.insert(run.args.end(), {"--in", name + "=" + input.string()});
  }
  run.args.insert(run.args.end(), {"--show", "0", "--out-dir", outputs.string()});
  runner::RunResult result = service.run(run);
  if (result.status != runner::RunStatus::Passed || result.tracePath.empty()) {
    m.error = fmt::format("run: {} {}", runner::runStatusName(result.status), result.message);
    return m;
  }
  if (c.check) {
    support::DiagnosticEngine diagnostics;
    std::optional<interp::RunOutputs> expected = interp::run(*program, kernelName, oracle.request, diagnostics);
    if (!expected) {
      m.error = "the reference cannot run the case";
      return m;
    }
    oracle.expected = std::move(*expected);
    for (const auto& [name, tensor] : oracle.expected) {
      oracle.tolerances[name] = interp::Tolerance::forDType(tensor.dtype);
    }
    auto read = [&](const std::string& name) { return support::readFile(outputs / (name + ".npy")); };
    for (const interp::OutputCheck& check : interp::checkOutputs(oracle, read)) {
      if (!check.pass()) {
        m.error = "wrong result: " + check.summary();
        return m;
      }
    }
  }
  perf::SimulationResult sim = perf::simulate(perf::loadTrace(result.tracePath), arch);
  for (const perf::LaunchProfile& launch : sim.launches) m.simUs += launch.deviceS * 1e6;
  fs::remove_all(dir);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  std::string filter;
  bool sandbox = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--filter" && i + 1 < argc) {
      filter = argv[++i];
    } else if (a == "--no-sandbox") {
      sandbox = false;
    } else {
      std::cerr << "usage: kernel_speed [--filter NAME,NAME...] [--no-sandbox]\n";
      return 2;
    }
  }
  perf::ArchSpec arch = perf::loadArchByName("910b2", perf::defaultArchDir());
  runner::ServiceOptions options;
  options.emuInclude = (fs::path(TILECRAFT_SOURCE_DIR) / "emu" / "include").string();
  options.sandbox = sandbox;
  std::unique_ptr<runner::BuildRunService> service = runner::startBuildRunService(options, std::cerr);
  if (service == nullptr) return 2;
  std::string pattern = (fs::temp_directory_path() / "tilecraft-kernel-speed-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return 2;
  fs::path work = pattern;

  std::printf("%-14s %-24s %-34s %-10s %10s %10s %8s %7s\n", "category", "kernel", "shape", "dtypes", "sim us",
              "limit us", "ratio", "bound");
  std::vector<double> ratios;
  int failed = 0;
  for (const SpeedCase& c : cases()) {
    if (!filter.empty() &&
        ("," + filter + ",").find("," + fs::path(c.file).stem().string() + ",") == std::string::npos) {
      continue;
    }
    Measured m = measure(c, *service, arch, work);
    std::string name = fs::path(c.file).stem().string();
    if (!m.error.empty()) {
      std::printf("%-14s %-24s %-34s FAILED %s\n", c.category, name.c_str(), m.shape.c_str(), m.error.c_str());
      ++failed;
      continue;
    }
    double ratio = m.simUs / m.limitUs;
    ratios.push_back(ratio);
    std::printf("%-14s %-24s %-34s %-10s %10.2f %10.2f %7.2fx %7s\n", c.category, name.c_str(), m.shape.c_str(),
                m.dtypes.c_str(), m.simUs, m.limitUs, ratio, m.bound.c_str());
    std::fflush(stdout);
  }
  fs::remove_all(work);
  if (!ratios.empty()) {
    std::sort(ratios.begin(), ratios.end());
    size_t n = ratios.size();
    double median = n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
    std::printf("median sim/limit over %zu kernels: %.2fx (max %.2fx)\n", n, median, ratios.back());
  }
  return failed == 0 ? 0 : 1;
}
