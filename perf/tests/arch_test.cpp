// Architecture spec loader: real files load with the numbers of hardware.md §8; every malformed number is
// reported with the file and JSON path.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "perf/arch.h"
#include "perf/error.h"

namespace tilecraft::perf {
namespace {

using nlohmann::json;

std::filesystem::path archDir() { return std::filesystem::path(TILECRAFT_SOURCE_DIR) / "configs" / "arch"; }

std::string realText(const std::string& name) {
  std::optional<std::string> text = diskReader()(archDir() / (name + ".json"));
  if (!text) throw std::runtime_error("missing arch file " + name);
  return *text;
}

// In-memory files: tests edit a copy of the real 910b2 spec.
struct FakeFiles {
  std::map<std::string, std::string> files;
  ReadTextFn reader() const {
    return [this](const std::filesystem::path& p) -> std::optional<std::string> {
      auto it = files.find(p.string());
      if (it == files.end()) return std::nullopt;
      return it->second;
    };
  }
};

std::string loadError(const FakeFiles& fake, const std::string& file) {
  try {
    loadArchSpec(file, fake.reader());
  } catch (const PerfError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ArchSpec, Default910b2HasTheProfileNumbers) {
  ArchSpec a = loadArchByName("910b2", archDir());
  EXPECT_EQ(a.name, "910b2");
  EXPECT_EQ(a.aicCores, 24);
  EXPECT_EQ(a.aivCores, 48);
  EXPECT_DOUBLE_EQ(a.clockHz, 1.8e9);
  EXPECT_DOUBLE_EQ(a.ubBytes, 192 * 1024);
  EXPECT_DOUBLE_EQ(a.l0cBytes, 128 * 1024);
  EXPECT_DOUBLE_EQ(a.hapMte2Bw, 1.92e12);
  EXPECT_DOUBLE_EQ(a.hbmPeakBw, 1.8e12);
  EXPECT_DOUBLE_EQ(a.limitFloorS, 1e-6);
  // 24 x 4096 MAC x 2 x 1.8 GHz = 353.9 TFLOPS (hardware.md §1).
  EXPECT_NEAR(a.cubeFlopsPerSecond(1.0), 353.894e12, 1e9);
  EXPECT_DOUBLE_EQ(a.vectorPeak.cyclesPerRepeat(VecClass::Exp, 2), 3.9);
  EXPECT_DOUBLE_EQ(a.vectorPeak.cyclesPerRepeat(VecClass::Exp, 4), 2.0);
  EXPECT_DOUBLE_EQ(a.vectorMeasured().binary, 2.0);
}

TEST(ArchSpec, OverridesReplaceOnlyWhatDiffers) {
  ArchSpec b4 = loadArchByName("910b4", archDir());
  EXPECT_EQ(b4.aicCores, 20);
  EXPECT_EQ(b4.aivCores, 40);
  EXPECT_DOUBLE_EQ(b4.l2Bytes, 96.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(b4.clockHz, 1.8e9);  // inherited
  EXPECT_DOUBLE_EQ(b4.ubBytes, 192 * 1024);
  ArchSpec p = loadArchByName("310p", archDir());
  EXPECT_EQ(p.aicCores, 8);
  EXPECT_DOUBLE_EQ(p.clockHz, 1.07e9);
  EXPECT_DOUBLE_EQ(p.ubBytes, 256 * 1024);
  EXPECT_DOUBLE_EQ(p.l0aBytes, 64 * 1024);  // inherited
  ArchSpec b3 = loadArchByName("910b3", archDir());
  EXPECT_EQ(b3.aivCores, 40);
}

TEST(ArchSpec, MissingNumberNamesFileAndPath) {
  json doc = json::parse(realText("910b2"));
  doc["numbers"]["clock"].erase("frequency");
  FakeFiles fake{{{"a/910b2.json", doc.dump()}}};
  EXPECT_EQ(loadError(fake, "a/910b2.json"),
            "a/910b2.json: missing number /numbers/clock/frequency (expected {\"value\": ..., \"unit\": \"MHz\", "
            "\"source\": ...})");
}

TEST(ArchSpec, IllTypedValueIsReported) {
  json doc = json::parse(realText("910b2"));
  doc["numbers"]["cores"]["aic"]["value"] = "many";
  FakeFiles fake{{{"a/910b2.json", doc.dump()}}};
  EXPECT_EQ(loadError(fake, "a/910b2.json"),
            "a/910b2.json: /numbers/cores/aic/value: expected a number, got string \"many\"");
}

TEST(ArchSpec, BareNumberWithoutUnitObjectIsReported) {
  json doc = json::parse(realText("910b2"));
  doc["numbers"]["buffers"]["ub"] = 192;
  FakeFiles fake{{{"a/910b2.json", doc.dump()}}};
  EXPECT_EQ(loadError(fake, "a/910b2.json"),
            "a/910b2.json: /numbers/buffers/ub: expected an object {\"value\", \"unit\", \"source\"}, got number");
}

TEST(ArchSpec, UnitMismatchIsReported) {
  json doc = json::parse(realText("910b2"));
  doc["numbers"]["clock"]["frequency"] = {{"value", 1.8}, {"unit", "GHz"}, {"source", "x"}};
  FakeFiles fake{{{"a/910b2.json", doc.dump()}}};
  EXPECT_EQ(loadError(fake, "a/910b2.json"),
            "a/910b2.json: /numbers/clock/frequency/unit: 'GHz' does not match the expected unit 'MHz'");
}

TEST(ArchSpec, MissingUnitAndMissingSourceAreReported) {
  json doc = json::parse(realText("910b2"));
  doc["numbers"]["dma"]["mte2_startup"].erase("unit");
  FakeFiles fake{{{"a/910b2.json", doc.dump()}}};
  EXPECT_EQ(loadError(fake, "a/910b2.json"),
            "a/910b2.json: /numbers/dma/mte2_startup/unit: missing (expected \"cycle\")");

  doc = json::parse(realText("910b2"));
  doc["numbers"]["dma"]["mte2_startup"]["source"] = "";
  fake.files["a/910b2.json"] = doc.dump();
  EXPECT_EQ(loadError(fake, "a/910b2.json"),
            "a/910b2.json: /numbers/dma/mte2_startup/source: missing (every number needs a source)");
}

TEST(ArchSpec, NegativeValueIsReported) {
  json doc = json::parse(realText("910b2"));
  doc["numbers"]["sync"]["set_flag"]["value"] = -1;
  FakeFiles fake{{{"a/910b2.json", doc.dump()}}};
  EXPECT_EQ(loadError(fake, "a/910b2.json"), "a/910b2.json: /numbers/sync/set_flag/value: -1 is negative");
}

TEST(ArchSpec, OverrideMissingANumberOfAnIncompleteBaseNamesTheChain) {
  json base = json::parse(realText("910b2"));
  base["numbers"]["memory"].erase("l2_size");
  json over = {{"name", "x"},
               {"base", "910b2"},
               {"numbers", {{"cores", {{"aic", {{"value", 20}, {"unit", "count"}, {"source", "s"}}}}}}}};
  FakeFiles fake{{{"a/910b2.json", base.dump()}, {"a/x.json", over.dump()}}};
  EXPECT_EQ(loadError(fake, "a/x.json"),
            "a/x.json (base a/910b2.json): missing number /numbers/memory/l2_size (expected {\"value\": ..., \"unit\": "
            "\"MiB\", \"source\": ...})");
}

TEST(ArchSpec, UnknownBaseIsReported) {
  json over = {{"name", "x"}, {"base", "nope"}, {"numbers", json::object()}};
  FakeFiles fake{{{"a/x.json", over.dump()}}};
  EXPECT_EQ(loadError(fake, "a/x.json"), "a/x.json: /base: base spec 'nope' not found (looked for a/nope.json)");
}

TEST(ArchSpec, BaseLoopIsReported) {
  json a = {{"base", "b"}, {"numbers", json::object()}};
  json b = {{"base", "a"}, {"numbers", json::object()}};
  FakeFiles fake{{{"d/a.json", a.dump()}, {"d/b.json", b.dump()}}};
  EXPECT_EQ(loadError(fake, "d/a.json"), "d/a.json: the base chain loops back to this file");
}

TEST(ArchSpec, InvalidJsonAndMissingNumbersObjectAreReported) {
  FakeFiles fake{{{"a/bad.json", "{\"numbers\": "}, {"a/empty.json", "{\"name\": \"e\"}"}}};
  EXPECT_EQ(loadError(fake, "a/bad.json").rfind("a/bad.json: invalid JSON at byte 13: ", 0), 0u)
      << loadError(fake, "a/bad.json");
  EXPECT_EQ(loadError(fake, "a/empty.json"),
            "a/empty.json: /numbers: missing (an arch spec holds its numbers in an object \"numbers\")");
}

TEST(ArchSpec, UnknownArchNameIsReported) {
  FakeFiles fake;
  try {
    loadArchByName("9999", "cfg", fake.reader());
    FAIL() << "expected an error";
  } catch (const PerfError& e) {
    EXPECT_STREQ(e.what(), "unknown architecture '9999': no spec file cfg/9999.json");
  }
}

}  // namespace
}  // namespace tilecraft::perf
