// MultiKernelBench submissions (project/snippet.h): the Python string literals read as Python reads them, with the
// line and column every line of a string starts at; each message's text and place; the project unpacked with
// msopgen's names; a compiler's FILE:LINE:COL of an unpacked file mapped back to the snippet.
#include "project/snippet.h"

#include <gtest/gtest.h>

#include <filesystem>

#include <fmt/format.h>

#include "support/files.h"

namespace tilecraft::project {
namespace {

namespace fs = std::filesystem;

std::map<std::string, SnippetString> readOk(const std::string& text) {
  std::map<std::string, SnippetString> out;
  std::vector<std::string> errors;
  EXPECT_TRUE(readSnippetStrings("s.py", text, out, errors));
  EXPECT_TRUE(errors.empty()) << errors.front();
  return out;
}

std::vector<std::string> readErrors(const std::string& text) {
  std::map<std::string, SnippetString> out;
  std::vector<std::string> errors;
  EXPECT_FALSE(readSnippetStrings("s.py", text, out, errors));
  return errors;
}

TEST(Snippet, TripleQuotedStringsKeepTheirLinesAndWhereEachStarts) {
  auto s = readOk("import os\n# kernel_src = 'a comment'\nkernel_src = \"\"\"\n#include <x>\n  int a;\n\"\"\"\n");
  ASSERT_EQ(s.count("kernel_src"), 1u);
  const SnippetString& k = s.at("kernel_src");
  EXPECT_EQ(k.value, "\n#include <x>\n  int a;\n");
  EXPECT_EQ(k.lines, (std::vector<int>{3, 4, 5, 6}));
  EXPECT_EQ(k.columns, (std::vector<int>{17, 1, 1, 1}));
}

TEST(Snippet, EscapesDecodeAsInPythonAndRawStringsKeepThem) {
  auto s = readOk(
      "a = 'x\\ty\\\\z\\'q\\x41\\101\\u00e9\\d'\n"
      "b = r'\\n\\''\n"
      "c = \"one\\ntwo\"\n"
      "d = '''p\\\nq'''\n");
  EXPECT_EQ(s.at("a").value, "x\ty\\z'qAA\xc3\xa9\\d");
  EXPECT_EQ(s.at("b").value, "\\n\\'");
  EXPECT_EQ(s.at("c").value, "one\ntwo");
  // An escaped newline starts a value line on the same snippet line, after the escape.
  EXPECT_EQ(s.at("c").lines, (std::vector<int>{3, 3}));
  EXPECT_EQ(s.at("c").columns, (std::vector<int>{6, 11}));
  EXPECT_EQ(s.at("d").value, "pq");  // a backslash at the end of a line joins the lines
}

TEST(Snippet, AdjacentLiteralsInParenthesesJoinAndALaterAssignmentWins) {
  auto s = readOk("x = ('ab'\n     \"cd\")\nx = 'first'; y = 1\nz = 'e' 'f'\nz = ('g'\n  'h')\n");
  EXPECT_EQ(s.at("z").value, "gh");
  EXPECT_EQ(s.at("x").value, "first");  // `;` ends a statement
  EXPECT_EQ(s.count("y"), 0u);          // not a string
}

TEST(Snippet, OtherStatementsAndTheirStringsAreSteppedOver) {
  auto s = readOk(
      "def f():\n    return '''kernel_src = \"no\"'''\n"
      "kernel_src = '''yes'''  # kernel_src = 'no'\n"
      "print(\"\"\"\nmodel_src = 'no'\n\"\"\")\n");
  EXPECT_EQ(s.at("kernel_src").value, "yes");
  EXPECT_EQ(s.count("model_src"), 0u);
}

TEST(Snippet, AnUnclosedStringIsAnErrorAtItsStart) {
  std::vector<std::string> e = readErrors("a = 1\nkernel_src = \"\"\"\nint x;\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "s.py:2:14: error: this string is not closed (no closing triple quote before the end of the file)");
  e = readErrors("host_tiling_src = 'abc\n'\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "s.py:1:19: error: this string is not closed on its line");
}

TEST(Snippet, ASourceThatIsNotAPlainLiteralIsAnErrorAtIt) {
  std::vector<std::string> e = readErrors("n = 4\nkernel_src = f'''int a[{n}];'''\nmodel_src = 'a' + 'b'\n");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0],
            "s.py:2:14: error: kernel_src is not a plain string literal\nhint: the submission is read without being "
            "run: write each source as a string literal (\"\"\"...\"\"\" or '''...'''), not an f-string, bytes or an "
            "expression");
  EXPECT_EQ(e[1].rfind("s.py:3:13: error: model_src is not a plain string literal\n", 0), 0u) << e[1];
}

TEST(Snippet, ATruncatedHexEscapeIsAnError) {
  std::vector<std::string> e = readErrors("a = 'x\\x4'\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "s.py:1:7: error: truncated \\x escape: it takes 2 hex digits");
}

class SnippetUnpack : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("tilecraft-snippet-{}", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& text) {
    std::string path = (dir_ / "sub.py").string();
    std::string error;
    EXPECT_TRUE(support::writeFileAtomically(path, text, &error)) << error;
    return path;
  }

  // Unpacking fails; the message.
  std::string failure(const std::string& text) {
    std::vector<SourceMap> maps;
    std::string error;
    EXPECT_FALSE(unpackSnippet(write(text), dir_ / "project", maps, error));
    return error;
  }

  fs::path dir_;
};

const char* const kSubmission =
    "project_json_src = '''[{\"op\": \"ScaleAddV2\", \"input_desc\": [], \"output_desc\": []}]'''\n"
    "host_tiling_src = \"\"\"\n#include \"register/tilingdata_base.h\"\n\"\"\"\n"
    "host_operator_src = \"\"\"\n#include \"scale_add_v2_tiling.h\"\n\"\"\"\n"
    "kernel_src = \"\"\"#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void scale_add_v2() {}\n"
    "\"\"\"\n"
    "python_bind_src = '// binding'\nmodel_src = 'import torch'\n";

TEST_F(SnippetUnpack, TheSixStringsBecomeMsopgensFilesWithLineMaps) {
  std::vector<SourceMap> maps;
  std::string error;
  std::string path = write(kSubmission);
  ASSERT_TRUE(unpackSnippet(path, dir_ / "project", maps, error)) << error;
  fs::path p = dir_ / "project";
  EXPECT_EQ(support::readFile(p / "op_kernel" / "scale_add_v2.cpp").value_or(""),
            "#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void scale_add_v2() {}\n");
  EXPECT_EQ(support::readFile(p / "op_host" / "scale_add_v2_tiling.h").value_or(""),
            "\n#include \"register/tilingdata_base.h\"\n");
  EXPECT_EQ(support::readFile(p / "op_host" / "scale_add_v2.cpp").value_or(""),
            "\n#include \"scale_add_v2_tiling.h\"\n");
  EXPECT_TRUE(fs::exists(p / "scale_add_v2.json"));
  EXPECT_EQ(support::readFile(p / "CppExtension" / "csrc" / "op.cpp").value_or(""), "// binding");
  EXPECT_EQ(support::readFile(p / "model_new.py").value_or(""), "import torch");
  ASSERT_EQ(maps.size(), 3u);  // the C++ files
  const SourceMap& kernel = maps[2];
  EXPECT_EQ(kernel.file, (p / "op_kernel" / "scale_add_v2.cpp").string());
  EXPECT_EQ(kernel.source, path);
  EXPECT_EQ(kernel.lines, (std::vector<int>{8, 9, 10}));
  // A compiler's message about the unpacked kernel names the snippet's line; on the first line, its column too.
  std::string message =
      fmt::format("In file included from {0}:1,\n{0}:2:36: error: bad\n{0}:1:10: note: here\n", kernel.file);
  EXPECT_EQ(mapSourceLines(message, maps),
            fmt::format("In file included from {0}:8,\n{0}:9:36: error: bad\n{0}:8:26: note: here\n", path));
  EXPECT_EQ(mapSourceLines(kernel.file + ":99:1: error: past the end", maps),
            kernel.file + ":99:1: error: past the end");
}

TEST_F(SnippetUnpack, AMissingSourceIsNamed) {
  std::string e = failure("project_json_src = '[]'\nkernel_src = ''\n");
  EXPECT_EQ(e, fmt::format("{}: error: the submission defines no host_tiling_src, host_operator_src\nhint: a "
                           "MultiKernelBench AscendC submission defines six strings: project_json_src, "
                           "host_tiling_src, host_operator_src, kernel_src, python_bind_src, model_src",
                           (dir_ / "sub.py").string()));
}

TEST_F(SnippetUnpack, TheOpDescriptionMustNameOneOperator) {
  std::string rest = "host_tiling_src = ''\nhost_operator_src = ''\nkernel_src = ''\n";
  std::string path = (dir_ / "sub.py").string();
  EXPECT_EQ(failure("project_json_src = '''{\"op\": '''\n" + rest)
                .rfind(path + ":1:23: error: project_json_src is not JSON\n", 0),
            0u);
  EXPECT_EQ(failure("project_json_src = '[{\"op\": \"A\"}, {\"op\": \"B\"}]'\n" + rest),
            path + ":1:21: error: project_json_src describes 2 operators; a project here has one");
  EXPECT_EQ(failure("project_json_src = '[{\"input_desc\": []}]'\n" + rest)
                .rfind(path + ":1:21: error: project_json_src has no \"op\" name\n", 0),
            0u);
  EXPECT_EQ(failure("project_json_src = '[{\"op\": \"../x\"}]'\n" + rest),
            path + ":1:21: error: the operator name '../x' is not an identifier");
}

TEST_F(SnippetUnpack, PackWritesEachFileAsARawLiteralThatReadsBackByteForByte) {
  fs::path p = dir_ / "proj";
  std::map<fs::path, std::string> files = {
      {"scale_custom.json", R"([{"op": "ScaleCustom"}])"},
      {"op_host/scale_custom_tiling.h", "// \"\"\" in a comment\n#define A \"\\n\"\n"},
      {"op_host/scale_custom.cpp", "int host;\n"},
      {"op_kernel/scale_custom.cpp", "const char* s = \"a\\tb\";\n"},
  };
  std::string error;
  for (const auto& [name, text] : files) {
    fs::create_directories((p / name).parent_path());
    ASSERT_TRUE(support::writeFileAtomically(p / name, text, &error)) << error;
  }
  std::string text;
  ASSERT_TRUE(packSubmission(p, text, error)) << error;
  Submission read;
  ASSERT_TRUE(readSubmission("packed.py", text, read, error)) << error;
  EXPECT_EQ(read.name, "scale_custom");
  EXPECT_EQ(read.strings.at("project_json_src").value, files.at("scale_custom.json"));
  EXPECT_EQ(read.strings.at("host_tiling_src").value, files.at("op_host/scale_custom_tiling.h"));
  EXPECT_EQ(read.strings.at("kernel_src").value, files.at("op_kernel/scale_custom.cpp"));
  EXPECT_EQ(read.strings.count("model_src"), 0u);  // the project has none
  // A file no raw literal can hold.
  ASSERT_TRUE(support::writeFileAtomically(p / "op_host/scale_custom.cpp", "\"\"\" and '''\n", &error)) << error;
  EXPECT_FALSE(packSubmission(p, text, error));
  EXPECT_EQ(error, fmt::format("error: {}: cannot be written as a Python raw string literal (it holds both kinds of "
                               "triple quote, or ends in a backslash or a quote)",
                               (p / "op_host/scale_custom.cpp").string()));
  fs::remove(p / "op_kernel/scale_custom.cpp");
  ASSERT_TRUE(support::writeFileAtomically(p / "op_host/scale_custom.cpp", "int host;\n", &error)) << error;
  EXPECT_FALSE(packSubmission(p, text, error));
  EXPECT_EQ(error, fmt::format("error: {}: no op_kernel/scale_custom.cpp (the kernel_src of operator ScaleCustom)",
                               p.string()));
}

TEST_F(SnippetUnpack, AnUnreadableFileIsSaid) {
  std::vector<SourceMap> maps;
  std::string error;
  EXPECT_FALSE(unpackSnippet((dir_ / "none.py").string(), dir_ / "project", maps, error));
  EXPECT_EQ(error, fmt::format("error: {}: cannot read the submission", (dir_ / "none.py").string()));
}

}  // namespace
}  // namespace tilecraft::project
