// End to end: each supported example compiles to AscendC, builds against the emulator headers without a warning,
// runs on an aligned and a non-aligned shape without tripping an emulator check, and matches the reference
// interpreter (interp/) under the comparison rule of docs/language.md.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/driver.h"
#include "codegen/tests/e2e_support.h"
#include "interp/compare.h"
#include "interp/npy.h"
#include "interp/oracle.h"
#include "support/process.h"

namespace tilecraft::codegen {
namespace {

namespace fs = std::filesystem;

struct Shape {
  std::map<std::string, int64_t> dims;
  std::map<std::string, double> attrs;
};

struct Case {
  std::string example;  // examples/<category>/<name>.tile, or tests/data/<name> for codegen/tests/data/<name>.tile
  std::vector<Shape> shapes;  // the first aligned to 32 bytes everywhere, the second not
  std::map<std::string, interp::ValueRange> ranges = {};
};

// ctest shows the parameter: the example's name, not its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.example; }

class CodegenE2E : public ::testing::TestWithParam<Case> {};

// Compiles `tile`, builds the C++ (no warning allowed), runs it on each shape and compares every output with the
// interpreter's; the generated code goes to `generated` when given.
void expectMatchesInterpreter(const fs::path& tile, const std::vector<Shape>& shapes,
                              const std::map<std::string, interp::ValueRange>& ranges,
                              std::string* generated = nullptr) {
  std::string code, kernel;
  std::ostringstream diags;
  ASSERT_EQ(compileToAscendC({tile.string(), "text"}, code, kernel, diags), 0) << diags.str();
  if (generated) *generated = code;
  // Files are named after the kernel: the .tile file's name may be anything (the hostile-source test's is).
  const std::string& name = kernel;
  fs::path dir = tempDir(name);
  fs::path source = dir / (name + ".cpp");
  std::ofstream(source) << code;

  support::ProcessResult built = buildAgainstEmulator(source, dir / name, "-O1", {"-Wall", "-Wextra"});
  support::SystemProcessRunner runner;
  ASSERT_EQ(built.exitCode, 0) << built.err;
  EXPECT_EQ(built.err, "") << "the generated kernel must build without warnings";

  auto program = interp::checkProgram(tile.filename().string(), readText(tile));
  ASSERT_TRUE(program->ok()) << program->renderDiagnostics();
  int run = 0;
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(::testing::Message() << "shape #" << run);
    support::DiagnosticEngine interpDiags;
    auto oracle = interp::makeOracleCase(*program, "", shape.dims, shape.attrs, ranges, 7 + run, interpDiags);
    ASSERT_TRUE(oracle.has_value());
    fs::path out = dir / ("out" + std::to_string(run));
    fs::create_directories(out);
    support::ProcessSpec exec;
    exec.argv = {(dir / name).string(), "--out-dir", out.string()};
    for (const auto& [dim, value] : shape.dims) exec.argv.push_back(dim + "=" + std::to_string(value));
    for (const auto& [attr, value] : shape.attrs) exec.argv.push_back(fmt::format("{}={}", attr, value));
    for (const auto& [input, tensor] : oracle->request.inputs) {
      fs::path file = dir / ("in" + std::to_string(run) + "_" + input + ".npy");
      std::ofstream(file, std::ios::binary) << interp::encodeNpy(tensor);
      exec.argv.push_back("--in");
      exec.argv.push_back(input + "=" + file.string());
    }
    exec.timeoutSeconds = 300;
    support::ProcessResult ran = runner.run(exec);
    ASSERT_EQ(ran.exitCode, 0) << "a non-zero status (3: an emulator check) is a compiler bug\n" << ran.err;
    for (const auto& [output, expected] : oracle->expected) {
      std::string error;
      auto actual = interp::decodeNpy(readText(out / (output + ".npy")), &error);
      ASSERT_TRUE(actual.has_value()) << output << ": " << error;
      interp::CompareResult cmp = interp::compare(expected, *actual, oracle->tolerances.at(output));
      EXPECT_TRUE(cmp.pass) << output << ": " << cmp.message;
    }
    ++run;
  }
  fs::remove_all(dir);
}

TEST_P(CodegenE2E, MatchesTheInterpreterOnAlignedAndUnalignedShapes) {
  const Case& tc = GetParam();
  // Constructs no example needs are covered by small kernels under codegen/tests/data.
  bool data = tc.example.rfind("tests/data/", 0) == 0;
  fs::path tile = fs::path(TILECRAFT_SOURCE_DIR) / (data ? "codegen" : "examples") / (tc.example + ".tile");
  expectMatchesInterpreter(tile, tc.shapes, tc.ranges);
}

// Source text cannot steer the generated code (docs/security.md, "Generated code"): the file's name and its
// comments carry every control character, DEL, a CR followed by a would-be C++ line, and a backslash at the end
// of a line, which would splice the next generated line into the comment. Every line of the C++ is printable
// ASCII, no line ends in a backslash, no injected text is outside a comment, and the kernel still computes
// what the interpreter computes.
TEST(CodegenHostileSource, CommentsAndTheFileNameCannotSteerTheGeneratedCode) {
  // Every control character but LF (which ends a comment) and CR (below), and DEL.
  std::string controls;
  for (int c = 0; c < 0x20; ++c) {
    if (c != '\n' && c != '\r') controls += static_cast<char>(c);
  }
  controls += '\x7f';
  // A CR starts a line for a C++ compiler. What follows each CR starts with '#', so the program means the same
  // whether or not the DSL's lexer ends a line at a lone CR.
  const std::string tail = controls + "\r#error injected through a comment\r# \\\n";
  std::string program = "# " + tail;
  program += "N = dim()  # " + tail + "\n";
  program += "@kernel  # \\\n";
  program += "def hostile(x: Tensor[f32, (N,)], z: Tensor[f32, (N,)]):  # " + tail;
  program += "    part = split(N, cores=vector_cores())  # " + tail;
  program += "    for t in tiles(part, size=1024):  # \\\n";
  program += "        with copyin:  # " + tail;
  program += "            a = load(x[t])  # \\\n";
  program += "        with compute:  # " + tail;
  program += "            b = a * 2.0  # \\\n";
  program += "            c = b + 1.0  # " + tail;
  program += "        with copyout:  # \\\n";
  program += "            store(z[t], c)  # " + tail;
  std::string fileName = "hostile" + controls.substr(1) + "\n#error injected through the file name\r\\.tile";
  fs::path dir = tempDir("hostile");
  fs::path tile = dir / fileName;
  std::ofstream(tile, std::ios::binary) << program;

  std::string code;
  expectMatchesInterpreter(tile, {{{{"N", 4096}}, {}}, {{{"N", 1001}}, {}}}, {}, &code);
  ASSERT_FALSE(code.empty());
  std::istringstream lines(code);
  std::string line;
  int number = 0, fromSource = 0;
  while (std::getline(lines, line)) {
    ++number;
    SCOPED_TRACE(::testing::Message() << "generated line " << number << ": " << line);
    for (char ch : line) ASSERT_TRUE(ch >= 0x20 && ch < 0x7f) << "byte " << static_cast<int>(ch);
    EXPECT_FALSE(!line.empty() && line.back() == '\\');
    if (line.find("injected through") == std::string::npos) continue;
    ++fromSource;
    EXPECT_EQ(line.substr(line.find_first_not_of(' '), 3), "// ");
  }
  EXPECT_GT(fromSource, 3) << "the comments and the file name reach the C++ (escaped)";
  EXPECT_NE(code.find("b = a * 2.0  # \\x5c"), std::string::npos) << "a trailing backslash is written \\x5c";
  fs::remove_all(dir);
}

// Without --in, the launcher generates the inputs `tilecraft interp --seed S` generates, so a run and the
// interpreter can be compared by seed alone.
TEST(CodegenLauncher, GeneratedInputsAreTheInterpretersForTheSameSeed) {
  fs::path tile = fs::path(TILECRAFT_SOURCE_DIR) / "examples/normalization/layer_norm.tile";
  fs::path dir = tempDir("seed");
  std::string code, kernel;
  std::ostringstream diags;
  ASSERT_EQ(compileToAscendC({tile.string(), "text"}, code, kernel, diags), 0) << diags.str();
  std::ofstream(dir / "k.cpp") << code;
  ASSERT_EQ(buildAgainstEmulator(dir / "k.cpp", dir / "k").exitCode, 0);
  support::SystemProcessRunner runner;
  support::ProcessSpec exec;
  exec.argv = {(dir / "k").string(), "M=5", "N=77", "--seed", "11", "--out-dir", dir.string()};
  exec.timeoutSeconds = 300;
  support::ProcessResult ran = runner.run(exec);
  ASSERT_EQ(ran.exitCode, 0) << ran.err;

  auto program = interp::checkProgram("layer_norm.tile", readText(tile));
  support::DiagnosticEngine interpDiags;
  auto oracle = interp::makeOracleCase(*program, "", {{"M", 5}, {"N", 77}}, {}, {}, 11, interpDiags);
  ASSERT_TRUE(oracle.has_value());
  std::string error;
  auto actual = interp::decodeNpy(readText(dir / "y.npy"), &error);
  ASSERT_TRUE(actual.has_value()) << error;
  interp::CompareResult cmp = interp::compare(oracle->expected.at("y"), *actual, oracle->tolerances.at("y"));
  EXPECT_TRUE(cmp.pass) << cmp.message;
  fs::remove_all(dir);
}

// What the cube path cannot lay out is an error at the DSL construct, with the numbers.
TEST(CodegenCube, TilesThatAreNotWholeFractalsAndNonTwoByteOperandsAreErrors) {
  struct Expect {
    const char* file;
    std::string text;
  };
  const std::string hint =
      "hint: compile with --emit=ir to inspect the kernel; see docs/compiler.md \"AscendC emitter\" for what is "
      "supported\n";
  std::vector<Expect> cases = {
      {"cube_odd_tile",
       "cube_odd_tile.tile:10:13: error: the AscendC emitter does not support cube tiles whose extents are not "
       "multiples of 16 (the fractal size): 'acc' in L0C is 100 x 64 yet\n"
       "            acc = zeros((m, n), f32, mem=L0C)\n"
       "            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n" +
           hint},
      {"cube_f32",
       "cube_f32.tile:16:17: error: the AscendC emitter does not support matmul operands of type f32 (LoadData "
       "transposes 2-byte fractals only) yet\n"
       "                acc = acc + copy(a1, to=L0A) @ copy(b1, to=L0B)\n"
       "                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n" +
           hint},
  };
  for (const Expect& e : cases) {
    fs::path tile = fs::path(TILECRAFT_SOURCE_DIR) / "codegen/tests/data" / (std::string(e.file) + ".tile");
    std::string code, kernel;
    std::ostringstream diags;
    EXPECT_EQ(compileToAscendC({tile.string(), "text"}, code, kernel, diags), 1) << e.file;
    EXPECT_EQ(code, "") << e.file;
    EXPECT_NE(diags.str().find(e.text), std::string::npos) << diags.str();
    EXPECT_NE(diags.str().find("1 error generated"), std::string::npos) << diags.str();
  }
}

// The examples the emitter supports end to end (docs/compiler.md, "AscendC emitter").
INSTANTIATE_TEST_SUITE_P(
    Examples, CodegenE2E,
    ::testing::Values(
        Case{"elementwise/add", {{{{"N", 98304}}, {}}, {{{"N", 10007}}, {}}}},
        Case{"elementwise/leaky_relu", {{{{"N", 49152}}, {}}, {{{"N", 100001}}, {{"slope", 0.2}}}}},
        Case{"elementwise/gelu_f16", {{{{"M", 96}, {"N", 256}}, {}}, {{{"M", 7}, {"N", 333}}, {}}}},
        Case{"broadcast/bias_add", {{{{"M", 96}}, {}}, {{{"M", 100}}, {}}}},
        Case{"broadcast/scale_shift",
             {{{{"M", 96}, {"N", 512}}, {{"scale", 2.0}}}, {{{"M", 50}, {"N", 1000}}, {{"scale", 0.5}}}}},
        Case{"reduction/sum_rows", {{{{"M", 96}, {"N", 1024}}, {}}, {{{"M", 100}, {"N", 1000}}, {}}}},
        Case{"reduction/max_cols", {{{{"M", 32}, {"N", 4608}}, {}}, {{{"M", 37}, {"N", 1001}}, {}}}},
        Case{"softmax/softmax_rows", {{{{"M", 96}, {"N", 1024}}, {}}, {{{"M", 100}, {"N", 1000}}, {}}}},
        Case{"softmax/log_softmax", {{{{"M", 96}, {"N", 1024}}, {}}, {{{"M", 9}, {"N", 1000}}, {}}}},
        Case{"normalization/rms_norm", {{{{"M", 96}, {"N", 1024}}, {}}, {{{"M", 9}, {"N", 1000}}, {{"eps", 1e-5}}}}},
        // 2048 and 1000: whole 256-element groups for the vector ArgMax/Compare/Select, and rows with tails.
        Case{"reduction/argmax_rows", {{{{"M", 96}, {"N", 2048}}, {}}, {{{"M", 50}, {"N", 1000}}, {}}}},
        Case{"loss/hinge_rows", {{{{"M", 96}, {"N", 512}}, {}}, {{{"M", 50}, {"N", 1000}}, {{"margin", 0.5}}}}},
        Case{"elementwise/silu_pow", {{{{"N", 98304}}, {}}, {{{"N", 10007}}, {}}}},
        Case{"tests/data/row_axis", {{{{"B", 96}, {"N", 256}}, {}}, {{{"B", 50}, {"N", 300}}, {}}}, {{"k", {0, 5}}}},
        Case{"tests/data/view4d",
             {{{{"B", 48}, {"C", 6}, {"H", 8}, {"W", 64}}, {}}, {{{"B", 5}, {"C", 7}, {"H", 3}, {"W", 37}}, {}}}},
        Case{"tests/data/trunc_cast", {{{{"N", 12288}}, {}}, {{{"N", 1001}}, {}}}, {{"x", {-4.0, 4.0}}}},
        Case{"tests/data/i64_to_f32", {{{{"N", 12288}}, {}}, {{{"N", 1001}}, {}}}, {{"x", {-1e12, 1e12}}}},
        Case{"tests/data/f16_fold",
             {{{{"M", 96}, {"N", 512}}, {}}, {{{"M", 30}, {"N", 879}}, {}}},
             {{"x", {-2.0, 2.0}}}},
        Case{"tests/data/one_row_scalars", {{{{"N", 512}}, {}}, {{{"N", 1000}}, {}}}},
        Case{"tests/data/load_twice", {{{{"N", 49152}}, {}}, {{{"N", 1001}}, {}}}},
        Case{"tests/data/pipe_30_inputs", {{{{"N", 3072}}, {}}, {{{"N", 1001}}, {}}}},
        Case{"tests/data/grid_double", {{{{"M", 64}, {"N", 256}}, {}}, {{{"M", 37}, {"N", 1001}}, {{"alpha", 0.5}}}}},
        Case{"tests/data/scalar_pow", {{{{"N", 12288}}, {}}, {{{"N", 1001}}, {{"alpha", 1.25}, {"k", 5}}}}},
        // Indices cast in compute and read by the scalar unit in a later copy-in (a V -> S flag).
        Case{"tests/data/cast_then_gather",
             {{{{"V", 8}, {"D", 16}, {"L", 4}}, {}}, {{{"V", 50}, {"D", 100}, {"L", 777}}, {}}},
             {{"idx", {0, 7}}}},
        // Slices running past the tensor's end: 1000 and 37 leave short last chunks, 1024 and 32 none.
        Case{"tests/data/slice_past_end",
             {{{{"N", 1024}, {"M", 8}, {"K", 32}}, {}}, {{{"N", 1000}, {"M", 10}, {"K", 37}}, {}}}},
        // where() tails (legalize's padded form): 98304 gives every core two whole 1024-element tiles, 5003 a
        // short last tile (104 or 105 elements); rows of a dim, of 128 f32, and 1000-element tiles.
        Case{"tests/data/where_tails", {{{{"M", 98304}}, {}}, {{{"M", 5003}}, {}}}, {{"j", {0, 5}}}},
        Case{"tests/data/where_rows", {{{{"M", 777}, {"N", 64}}, {}}, {{{"M", 100}, {"N", 33}}, {}}}},
        // Column forms: 1000 rows give cores 20 or 21 (tiles of 16 and a 4- or 5-row tail), rows of 200 four
        // 64-lane calls; 768 x 64 whole 16-row tiles of one call.
        Case{"tests/data/column_rows", {{{{"M", 1000}, {"N", 200}}, {}}, {{{"M", 768}, {"N", 64}}, {}}}},
        Case{"tests/data/column_stats", {{{{"M", 5000}, {"N", 64}}, {}}, {{{"M", 300}, {"N", 7}}, {}}}},
        Case{"tests/data/device_pow", {{{{"N", 12288}}, {}}, {{{"N", 1001}}, {{"alpha", 1.7}}}}},
        Case{"tests/data/stored_and_computed", {{{{"N", 49152}}, {}}, {{{"N", 1001}}, {}}}},
        // Once UB overflows at InitBuffer (the layout shared queue space); an (r, 1) tile stored into a 1-D view
        // (once copied as if contiguous), and the other copies whose tile and view differ by extent-1 dimensions.
        Case{"tests/data/residual_norm_bf16_buffers1",
             {{{{"M", 96}, {"N", 8192}}, {}}, {{{"M", 4}, {"N", 8192}}, {}}, {{{"M", 5}, {"N", 1000}}, {}}}},
        // Short rows (legalize): 14400 rows give every core 300, two repeated WholeReduces; N = 13 pads the rows.
        Case{"tests/data/short_rows", {{{{"M", 14400}, {"N", 16}}, {}}, {{{"M", 1000}, {"N", 13}}, {}}}},
        Case{"tests/data/store_col_into_1d", {{{{"M", 3072}, {"N", 64}}, {}}, {{{"M", 100}, {"N", 33}}, {}}}},
        // size=auto picks 4 rows of up to 1024 f32: 96 rows give every core 2, 500 rows 11 (tiles of 4, 4, 3).
        Case{"tests/data/size_auto", {{{{"M", 96}, {"N", 1024}}, {}}, {{{"M", 500}, {"N", 1000}}, {}}}},
        Case{"tests/data/extent_one_views", {{{{"M", 1536}, {"N", 64}}, {}}, {{{"M", 100}, {"N", 33}}, {}}}},
        Case{"normalization/layer_norm", {{{{"M", 96}, {"N", 1024}}, {}}, {{{"M", 9}, {"N", 1000}}, {}}}},
        Case{"loss/mse_loss", {{{{"N", 98304}}, {}}, {{{"N", 10007}}, {}}}},
        // 98304: whole 256-element groups for the vector Compare/Select; 30011: 625 per core, both units.
        Case{"loss/smooth_l1_loss", {{{{"N", 98304}}, {}}, {{{"N", 30011}}, {{"beta", 0.5}}}}},
        Case{"optimizer/sgd_momentum",
             {{{{"N", 98304}}, {{"lr", 0.1}}}, {{{"N", 5003}}, {{"lr", 0.05}, {"momentum", 0.5}}}}},
        Case{"optimizer/adam",
             {{{{"N", 98304}}, {{"lr", 0.001}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}, {"step", 3}}},
              {{{"N", 5003}}, {{"lr", 0.01}, {"beta1", 0.8}, {"beta2", 0.99}, {"eps", 1e-6}, {"step", 1}}}},
             {{"v", {0.0, 1.0}}}},
        Case{"scan/cumsum_rows", {{{{"M", 96}, {"N", 256}}, {}}, {{{"M", 7}, {"N", 333}}, {}}}},
        Case{"scan/cumsum_cols", {{{{"M", 64}, {"N", 12288}}, {}}, {{{"M", 37}, {"N", 1001}}, {}}}},
        Case{"gather/embedding",
             {{{{"T", 96}, {"V", 64}, {"D", 128}}, {}}, {{{"T", 100}, {"V", 50}, {"D", 100}}, {}}},
             {{"ids", {0, 49}}}},
        Case{"gather/gather_last",
             {{{{"M", 96}, {"N", 256}, {"K", 128}}, {}}, {{{"M", 10}, {"N", 100}, {"K", 37}}, {}}},
             {{"index", {0, 99}}}},
        Case{"pooling/max_pool2d_nhwc",
             {{{{"B", 2}, {"H", 8}, {"W", 8}, {"OH", 4}, {"OW", 4}, {"C", 64}}, {}},
              {{{"B", 3}, {"H", 6}, {"W", 7}, {"OH", 3}, {"OW", 3}, {"C", 100}}, {}}}},
        Case{"pooling/avg_pool1d",
             {{{{"N", 2}, {"L", 16}, {"OL", 4}, {"C", 128}}, {}}, {{{"N", 3}, {"L", 9}, {"OL", 2}, {"C", 100}}, {}}}},
        // The cube path: several grid blocks and K tiles aligned, then M, N, K not multiples of 16 (tails in
        // every loop, a short last K tile, a vector core of a mixed kernel with fewer rows than its partner).
        Case{"matmul/matmul", {{{{"M", 256}, {"N", 512}, {"K", 128}}, {}}, {{{"M", 100}, {"N", 70}, {"K", 50}}, {}}}},
        Case{"matmul/matmul_bt",
             {{{{"M", 256}, {"N", 256}, {"K", 256}}, {}}, {{{"M", 100}, {"N", 70}, {"K", 50}}, {}}}},
        Case{"matmul/batch_matmul",
             {{{{"BATCH", 2}, {"M", 128}, {"N", 256}, {"K", 256}}, {}},
              {{{"BATCH", 3}, {"M", 100}, {"N", 70}, {"K", 150}}, {}}}},
        Case{"mixed/matmul_bias_relu",
             {{{{"M", 256}, {"N", 256}, {"K", 128}}, {}}, {{{"M", 100}, {"N", 70}, {"K", 50}}, {}}}},
        Case{"mixed/matmul_gelu_scale",
             {{{{"M", 128}, {"N", 256}, {"K", 256}}, {{"scale", 0.5}}}, {{{"M", 100}, {"N", 70}, {"K", 50}}, {}}}}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string n = fs::path(info.param.example).filename().string();
      return n;
    });

}  // namespace
}  // namespace tilecraft::codegen
