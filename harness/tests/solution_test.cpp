#include "harness/solution.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;

// A scratch solutions root with one task folder, removed at the end.
class SolutionDir : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("tilecraft-solution-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void copyExample(const std::string& example, const fs::path& to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(fs::path(TILECRAFT_SOURCE_DIR) / "examples" / example, to, fs::copy_options::overwrite_existing);
  }
  void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }
  fs::path root_;
};

CaseTensor tensorOf(dsl::DType t, std::vector<int64_t> shape) {
  CaseTensor c;
  c.dtype = t;
  c.dtypeName = t == dsl::DType::F16 ? "float16" : t == dsl::DType::BF16 ? "bfloat16" : "float32";
  c.shapes = {std::move(shape)};
  return c;
}

// A proto tensor with its dtypes as proto.yaml spells them (the combination index counts those).
TensorDecl decl(std::string name, std::vector<dsl::DType> dtypes) {
  TensorDecl d;
  d.name = std::move(name);
  for (dsl::DType t : dtypes) {
    d.dtypeNames.push_back(t == dsl::DType::F16 ? "float16" : t == dsl::DType::BF16 ? "bfloat16" : "float32");
  }
  d.dtypes = std::move(dtypes);
  return d;
}

// Task `add` of examples/elementwise/add.tile: inputs named `first` and `second` (x and y match the kernel), z.
Task addTask(const char* first = "x", const char* second = "y") {
  Task t;
  t.name = "add";
  t.inputs = {decl(first, {dsl::DType::F16}), decl(second, {dsl::DType::F16})};
  t.outputs = {decl("z", {dsl::DType::F16})};
  return t;
}

Task rmsNormTask() {
  Task t;
  t.name = "rms_norm";
  t.inputs = {decl("x", {dsl::DType::F16, dsl::DType::F32}), decl("gamma", {dsl::DType::F16, dsl::DType::F32})};
  t.outputs = {decl("y", {dsl::DType::F16, dsl::DType::F32})};
  t.attrs = {{"eps", "float", "1e-6"}};
  return t;
}

TEST_F(SolutionDir, MissingTaskFolderIsNoSolution) {
  std::vector<Solution> s = findSolutions(root_, "relu");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].kind, "none");
  Task task;
  Case c;
  CaseBinding b = bindCase(s[0], task, c, {}, {});
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.failure, Failure::NoSolution);
}

TEST_F(SolutionDir, NumberedFoldersAreSamples) {
  copyExample("elementwise/add.tile", root_ / "add" / "0" / "add.tile");
  copyExample("elementwise/add.tile", root_ / "add" / "1" / "add.tile");
  std::vector<Solution> s = findSolutions(root_, "add");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].sample, 1);
  EXPECT_EQ(s[1].kind, "dsl");
  ASSERT_EQ(s[1].kernels.size(), 1u);
  EXPECT_EQ(s[1].kernels[0].name, "add");
}

TEST_F(SolutionDir, PicksTheKernelOfTheCaseDtypeAndFoldsLeadingDims) {
  copyExample("normalization/rms_norm.tile", root_ / "rms_norm" / "rms_norm_f32.tile");
  Solution s = findSolutions(root_, "rms_norm").front();
  Task task = rmsNormTask();
  Case c;
  c.id = "1";
  c.inputs = {tensorOf(dsl::DType::F32, {2, 3, 8}), tensorOf(dsl::DType::F32, {8})};
  c.attrsJson = R"({"eps": 1e-05})";
  CaseBinding b = bindCase(s, task, c, {{2, 3, 8}, {8}}, {{2, 3, 8}});
  ASSERT_TRUE(b.ok) << b.message;
  EXPECT_EQ(b.kernel->file.filename(), "rms_norm_f32.tile");
  EXPECT_EQ(b.views.at("x"), (std::vector<int64_t>{6, 8}));
  EXPECT_EQ(b.views.at("gamma"), (std::vector<int64_t>{1, 8}));
  EXPECT_EQ(b.args, (std::vector<std::string>{"M=6", "N=8", "eps=1e-05"}));

  c.inputs = {tensorOf(dsl::DType::F16, {2, 8}), tensorOf(dsl::DType::F16, {8})};
  CaseBinding f16 = bindCase(s, task, c, {{2, 8}, {8}}, {{2, 8}});
  EXPECT_FALSE(f16.ok);
  EXPECT_EQ(f16.failure, Failure::Dtype);
  EXPECT_EQ(f16.message,
            "no kernel of the solution takes the case's dtypes (f16, f16, f16): rms_norm_f32.tile takes "
            "(f32, f32, f32)");
}

// One generic program (T = dtype(f16, f32)) covers both dtypes: it is read once per instantiation, and a case
// binds to the instantiation whose tensors have its dtypes.
TEST_F(SolutionDir, GenericKernelInstantiatesPerCaseDtype) {
  fs::create_directories(root_ / "rms_norm");
  fs::copy_file(fs::path(TILECRAFT_SOURCE_DIR) / "solutions/rms_norm/rms_norm.tile",
                root_ / "rms_norm" / "rms_norm.tile");
  Solution s = findSolutions(root_, "rms_norm").front();
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].instantiation, "T=f16");
  EXPECT_EQ(s.kernels[1].bindings, (std::vector<std::string>{"T=f32"}));
  Task task = rmsNormTask();
  Case c;
  c.inputs = {tensorOf(dsl::DType::F32, {2, 3, 8}), tensorOf(dsl::DType::F32, {8})};
  CaseBinding f32 = bindCase(s, task, c, {{2, 3, 8}, {8}}, {{2, 3, 8}});
  ASSERT_TRUE(f32.ok) << f32.message;
  EXPECT_EQ(f32.kernel->instantiation, "T=f32");
  EXPECT_EQ(f32.views.at("x"), (std::vector<int64_t>{6, 8}));
  c.inputs = {tensorOf(dsl::DType::F16, {8}), tensorOf(dsl::DType::F16, {8})};
  CaseBinding f16 = bindCase(s, task, c, {{8}, {8}}, {{8}});
  ASSERT_TRUE(f16.ok) << f16.message;
  EXPECT_EQ(f16.kernel->instantiation, "T=f16");
  EXPECT_EQ(f16.views.at("x"), (std::vector<int64_t>{1, 8}));  // (..., M, N): M is 1 without leading dims

  // A dtype outside the choices matches no instantiation (the task derives an f16 y for bf16 inputs it does not
  // declare).
  c.inputs = {tensorOf(dsl::DType::BF16, {2, 8}), tensorOf(dsl::DType::BF16, {8})};
  CaseBinding bf16 = bindCase(s, task, c, {{2, 8}, {8}}, {{2, 8}});
  EXPECT_FALSE(bf16.ok);
  EXPECT_EQ(bf16.failure, Failure::Dtype);
  EXPECT_EQ(bf16.message,
            "no kernel of the solution takes the case's dtypes (bf16, bf16, f16): rms_norm.tile (T=f16) takes "
            "(f16, f16, f16); rms_norm.tile (T=f32) takes (f32, f32, f32)");
}

// A const parameter takes the case's attribute of its name (another value is another instantiation); without
// one it keeps its default.
TEST_F(SolutionDir, ConstParameterBindsFromTheCaseAttribute) {
  write(root_ / "add" / "add.tile", R"(T = dtype(f16, f32)
SIZE = const(1024)
N = dim()

@kernel
def add(x: Tensor[T, (..., N)], y: Tensor[T, (..., N)], z: Tensor[T, (..., N)]):
    part = split(N, cores=vector_cores())
    for t in tiles(part, size=SIZE):
        with copyin:
            a = load(x[t])
            b = load(y[t])
        with compute:
            c = a + b
        with copyout:
            store(z[t], c)
)");
  Solution s = findSolutions(root_, "add").front();
  ASSERT_EQ(s.kernels.size(), 2u) << s.kernels[0].error;
  EXPECT_EQ(s.kernels[0].consts, (std::map<std::string, int64_t>{{"SIZE", 1024}}));
  Task task = addTask();
  Case c;
  c.inputs = {tensorOf(dsl::DType::F16, {4, 100}), tensorOf(dsl::DType::F16, {4, 100})};
  CaseBinding byDefault = bindCase(s, task, c, {{4, 100}, {4, 100}}, {{4, 100}});
  ASSERT_TRUE(byDefault.ok) << byDefault.message;
  EXPECT_EQ(byDefault.kernel->instantiation, "T=f16, SIZE=1024");
  EXPECT_EQ(byDefault.instantiated, nullptr);
  EXPECT_EQ(byDefault.args, (std::vector<std::string>{"N=400"}));

  c.attrsJson = R"({"SIZE": 256})";
  CaseBinding rebound = bindCase(s, task, c, {{4, 100}, {4, 100}}, {{4, 100}});
  ASSERT_TRUE(rebound.ok) << rebound.message;
  EXPECT_EQ(rebound.kernel->instantiation, "T=f16, SIZE=256");
  EXPECT_EQ(rebound.kernel->bindings, (std::vector<std::string>{"T=f16", "SIZE=256"}));
  EXPECT_NE(rebound.instantiated, nullptr);
  EXPECT_EQ(rebound.args, (std::vector<std::string>{"N=400"}));  // a const parameter is no kernel argument

  c.attrsJson = R"({"SIZE": 2.5})";
  CaseBinding bad = bindCase(s, task, c, {{4, 100}, {4, 100}}, {{4, 100}});
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.failure, Failure::Signature);
  EXPECT_EQ(bad.message,
            "const parameter 'SIZE' of add.tile takes the case's attribute, which is 2.5 (not an integer)");
}

TEST_F(SolutionDir, RowStatisticsPadAtTheEnd) {
  copyExample("reduction/sum_rows.tile", root_ / "sum_rows" / "sum_rows.tile");
  Solution s = findSolutions(root_, "sum_rows").front();
  Task task;
  task.name = "sum_rows";
  task.inputs = {decl("x", {dsl::DType::F32})};
  task.outputs = {decl("y", {dsl::DType::F32})};
  Case c;
  c.inputs = {tensorOf(dsl::DType::F32, {5, 7})};
  CaseBinding b = bindCase(s, task, c, {{5, 7}}, {{5}});
  ASSERT_TRUE(b.ok) << b.message;
  EXPECT_EQ(b.views.at("y"), (std::vector<int64_t>{5, 1}));
}

TEST_F(SolutionDir, ConflictingDimsNameBothSources) {
  copyExample("elementwise/add.tile", root_ / "add" / "add.tile");
  Solution s = findSolutions(root_, "add").front();
  Task task = addTask();
  Case c;
  c.inputs = {tensorOf(dsl::DType::F16, {10}), tensorOf(dsl::DType::F16, {11})};
  CaseBinding b = bindCase(s, task, c, {{10}, {11}}, {{10}});
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.message,
            "add.tile: dim N is 10 from 'x' dimension 0 but 11 from 'y' dimension 0 (case shape [11]); add "
            "a binding.yaml");
}

TEST_F(SolutionDir, KernelParametersMustBeTaskTensors) {
  copyExample("elementwise/add.tile", root_ / "add" / "add.tile");
  Solution s = findSolutions(root_, "add").front();
  Task task = addTask("a");
  Case c;
  c.inputs = {tensorOf(dsl::DType::F16, {10}), tensorOf(dsl::DType::F16, {10})};
  CaseBinding b = bindCase(s, task, c, {{10}, {10}}, {{10}});
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.failure, Failure::Signature);
  EXPECT_EQ(b.message,
            "kernel parameter 'x' of add.tile is not an input or output of task add (those are named in "
            "proto.yaml)");
}

TEST_F(SolutionDir, BindingFileExpressions) {
  copyExample("elementwise/add.tile", root_ / "add" / "add.tile");
  write(root_ / "add" / "binding.yaml", "dims:\n  N: \"prod(x.shape[1:]) * x.shape[0]\"\n");
  Solution s = findSolutions(root_, "add").front();
  ASSERT_EQ(s.error, "");
  Task task = addTask();
  Case c;
  c.inputs = {tensorOf(dsl::DType::F16, {3, 4, 5}), tensorOf(dsl::DType::F16, {3, 4, 5})};
  CaseBinding b = bindCase(s, task, c, {{3, 4, 5}, {3, 4, 5}}, {{3, 4, 5}});
  ASSERT_TRUE(b.ok) << b.message;
  EXPECT_EQ(b.args, (std::vector<std::string>{"N=60"}));

  write(root_ / "add" / "binding.yaml", "dims:\n  N: \"x.shape[7]\"\n");
  s = findSolutions(root_, "add").front();
  b = bindCase(s, task, c, {{3, 4, 5}, {3, 4, 5}}, {{3, 4, 5}});
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.message, "binding.yaml: in 'x.shape[7]' at column 11: index out of range for rank 3");

  write(root_ / "add" / "binding.yaml", "dimz:\n  N: numel(x)\n");
  s = findSolutions(root_, "add").front();
  EXPECT_NE(s.error.find("binding.yaml: line 1: unknown key 'dimz' (expected dims, attrs)"), std::string::npos)
      << s.error;
}

TEST_F(SolutionDir, AKernelThatDoesNotCompileReportsItsDiagnostics) {
  write(root_ / "add" / "add.tile", "@kernel\ndef add(x: Tensor[f99, (4,)]):\n    pass\n");
  Solution s = findSolutions(root_, "add").front();
  Task task;
  task.name = "add";
  task.inputs = {decl("x", {dsl::DType::F16})};
  Case c;
  c.inputs = {tensorOf(dsl::DType::F16, {4})};
  CaseBinding b = bindCase(s, task, c, {{4}}, {});
  EXPECT_FALSE(b.ok);
  EXPECT_NE(b.message.find("add.tile:2:"), std::string::npos) << b.message;
}

}  // namespace
}  // namespace tilecraft::harness
