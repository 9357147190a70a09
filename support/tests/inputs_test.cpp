// The strict readers every command uses for what a user hands it: numbers, seconds, input files, output folders,
// and text that must come out as valid UTF-8 JSON.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/diagnostic.h"
#include "support/files.h"
#include "support/numbers.h"
#include "support/source.h"

namespace tilecraft::support {
namespace {

namespace fs = std::filesystem;

TEST(Numbers, Int64IsTheWholeTextAndNeverWraps) {
  EXPECT_EQ(parseInt64("1000"), 1000);
  EXPECT_EQ(parseInt64("-7"), -7);
  EXPECT_EQ(parseInt64("+7"), 7);
  EXPECT_EQ(parseInt64("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(parseInt64("99999999999999999999"), std::nullopt);
  EXPECT_EQ(parseInt64("9223372036854775808"), std::nullopt);
  for (const char* bad : {"", "-", "+", "1e3", "12x", " 1", "1 ", "0x10", "--1", "+-1", "1.0"}) {
    EXPECT_EQ(parseInt64(bad), std::nullopt) << bad;
  }
}

TEST(Numbers, FiniteDoubleRefusesInfinityNanAndOverflow) {
  EXPECT_EQ(parseFiniteDouble("0.5"), 0.5);
  EXPECT_EQ(parseFiniteDouble("-1e-3"), -1e-3);
  EXPECT_EQ(parseFiniteDouble("1e-999"), 0.0);
  for (const char* bad : {"", "inf", "-inf", "nan", "1e999", "-1e999", "infinity", "0x1p3", "1,5", " 1", "1s"}) {
    EXPECT_EQ(parseFiniteDouble(bad), std::nullopt) << bad;
  }
}

TEST(Numbers, SecondsAreFinitePositiveAndAtMostADay) {
  double s = -1;
  EXPECT_EQ(checkSeconds("2.5", false, &s), "");
  EXPECT_EQ(s, 2.5);
  EXPECT_EQ(checkSeconds("86400", false, &s), "");
  EXPECT_EQ(checkSeconds("inf", false, &s), "'inf' is not a finite number of seconds in (0, 86400]");
  EXPECT_EQ(checkSeconds("nan", false, &s), "'nan' is not a finite number of seconds in (0, 86400]");
  EXPECT_EQ(checkSeconds("1e10", false, &s),
            "1e10 s is out of range: expected a finite number of seconds in (0, 86400]");
  EXPECT_EQ(checkSeconds("-1", false, &s), "-1 s is out of range: expected a finite number of seconds in (0, 86400]");
  EXPECT_EQ(checkSeconds("0", false, &s), "0 s is out of range: expected a finite number of seconds in (0, 86400]");
  EXPECT_EQ(checkSeconds("0", true, &s), "");
  EXPECT_EQ(s, 0);
  EXPECT_EQ(checkSeconds("-1", true, &s),
            "-1 s is out of range: expected a finite number of seconds in (0, 86400], or 0 for no limit");
}

TEST(Numbers, ProductsStopAtTheLimitInsteadOfWrapping) {
  EXPECT_EQ(checkedProduct(1000, 4, 4000), 4000u);
  EXPECT_EQ(checkedProduct(1000, 4, 3999), std::nullopt);
  EXPECT_EQ(checkedProduct(uint64_t{1} << 40, uint64_t{1} << 40, UINT64_MAX), std::nullopt);
  EXPECT_EQ(checkedProduct(0, 7, 0), 0u);
}

class InputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tilecraft-inputs-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(InputFiles, OnlyRegularFilesWithinTheirLimitAreRead) {
  std::ofstream(dir_ / "a.bin") << "12345678";
  std::string error;
  EXPECT_EQ(readInputFile(dir_ / "a.bin", 8, &error), "12345678");
  EXPECT_EQ(readInputFile(dir_ / "a.bin", 7, &error), std::nullopt);
  EXPECT_EQ(error, "'" + (dir_ / "a.bin").string() + "' has 8 bytes, more than the 7 it may have");
  EXPECT_EQ(readInputFile(dir_, 100, &error), std::nullopt);
  EXPECT_EQ(error, "'" + dir_.string() + "' is a folder, not a file");
  // /dev/zero never ends: refused before a byte is read.
  EXPECT_EQ(readInputFile("/dev/zero", 100, &error), std::nullopt);
  EXPECT_EQ(error, "'/dev/zero' is a device, not a file");
  EXPECT_EQ(readInputFile(dir_ / "missing", 100, &error), std::nullopt);
  EXPECT_EQ(error, "cannot read '" + (dir_ / "missing").string() + "': No such file or directory");
}

TEST_F(InputFiles, OutputFoldersAreMadeOrRefusedBeforeAnyWork) {
  std::string error;
  EXPECT_TRUE(prepareOutputFolder(dir_ / "new" / "deep", &error));
  EXPECT_TRUE(fs::is_directory(dir_ / "new" / "deep"));
  EXPECT_TRUE(prepareOutputFolder(dir_ / "new", &error));
  std::ofstream(dir_ / "file") << "x";
  EXPECT_FALSE(prepareOutputFolder(dir_ / "file", &error));
  EXPECT_EQ(error, "'" + (dir_ / "file").string() + "' is a file, not a folder");
  EXPECT_FALSE(prepareOutputFolder(dir_ / "file" / "sub", &error));
  EXPECT_EQ(error, "cannot create the folder '" + (dir_ / "file" / "sub").string() + "': Not a directory");
}

TEST_F(InputFiles, SourceFilesThatAreDevicesAreRefused) {
  SourceManager sources;
  std::string error;
  EXPECT_FALSE(sources.addFile("/dev/zero", &error));
  EXPECT_EQ(error, "'/dev/zero' is a device, not a file");
}

TEST(SourceEncoding, LineEndsAndByteOrderMark) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.tile",
                          "\xEF\xBB\xBF"
                          "ab\rcd\r\nef\ngh");
  EXPECT_EQ(sm.text(f), "ab\rcd\r\nef\ngh");
  EXPECT_EQ(sm.lineText(f, 1), "ab");
  EXPECT_EQ(sm.lineText(f, 2), "cd");
  EXPECT_EQ(sm.lineText(f, 3), "ef");
  EXPECT_EQ(sm.lineText(f, 4), "gh");
  EXPECT_EQ(sm.lineCol(f, 3).line, 2u);
  EXPECT_EQ(sm.lineCol(f, 8).line, 3u);
}

TEST(SourceEncoding, ColumnsCountCharacters) {
  SourceManager sm;
  // "é" (2 bytes), "→" (3 bytes), an invalid byte (1): then 'x' is the fourth character.
  FileId f = sm.addBuffer("a.tile", "\xC3\xA9\xE2\x86\x92\xFFx");
  EXPECT_EQ(sm.lineCol(f, 2).col, 2u);
  EXPECT_EQ(sm.lineCol(f, 5).col, 3u);
  EXPECT_EQ(sm.lineCol(f, 6).col, 4u);
}

TEST(SourceEncoding, JsonDiagnosticsAreAlwaysValidUtf8) {
  SourceManager sm;
  FileId f = sm.addBuffer("caf\xE9.tile", "x\n");
  DiagnosticEngine diagnostics;
  diagnostics.error(Span{f, 0, 1}, "bad name 'n\xC3\xA9' and byte \xFF, overlong \xC0\xAF, surrogate \xED\xA0\x80");
  std::string json = renderJson(sm, diagnostics.diagnostics());
  nlohmann::json parsed = nlohmann::json::parse(json);  // throws on invalid UTF-8
  EXPECT_EQ(parsed["diagnostics"][0]["file"], "caf\xEF\xBF\xBD.tile");
  EXPECT_EQ(parsed["diagnostics"][0]["message"],
            "bad name 'n\xC3\xA9' and byte \xEF\xBF\xBD, overlong \xEF\xBF\xBD\xEF\xBF\xBD, surrogate "
            "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace
}  // namespace tilecraft::support
