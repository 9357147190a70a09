// What cann-ops' shared op_host headers need from CANN besides the op API (emu/include/securec.h, toolchain/slog.h,
// common/util/error_manager/error_manager.h, exe_graph/runtime/range.h and infer_shape_range_context.h, the
// type and format names): each behaves as CANN's does, return codes included.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "common/util/error_manager/error_manager.h"
#include "emu/host_driver.h"
#include "exe_graph/runtime/infer_shape_range_context.h"
#include "graph/utils/type_utils.h"
#include "securec.h"
#include "toolchain/slog.h"

namespace {

TEST(Securec, CopiesWithinBoundsAndClearsTheDestinationOtherwise) {
  char dst[8] = "abcdefg";
  EXPECT_EQ(memcpy_s(dst, sizeof(dst), "xy", 2), EOK);
  EXPECT_EQ(std::string(dst, 3), "xyc");
  EXPECT_EQ(memcpy_s(dst, 4, "123456", 6), ERANGE_AND_RESET);  // count past destMax: the 4 bytes zeroed
  EXPECT_EQ(std::string(dst, 4), std::string(4, '\0'));
  EXPECT_EQ(dst[4], 'e');
  std::memcpy(dst, "abcdefg", 8);
  EXPECT_EQ(memcpy_s(dst + 1, 7, dst, 4), EOVERLAP_AND_RESET);
  EXPECT_EQ(memcpy_s(dst, 0, "x", 1), ERANGE);  // nothing it may touch
  EXPECT_EQ(memcpy_s(nullptr, 4, "x", 1), EINVAL);
  EXPECT_EQ(memmove_s(dst, 8, dst + 1, 4), EOK);  // overlap is memmove's job
  EXPECT_EQ(memset_s(dst, 4, 'z', 8), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(dst, 4), "zzzz");
}

TEST(Securec, StringsThatDoNotFitLeaveAnEmptyString) {
  char dst[6] = "";
  EXPECT_EQ(strcpy_s(dst, sizeof(dst), "hello"), EOK);
  EXPECT_STREQ(dst, "hello");
  EXPECT_EQ(strcpy_s(dst, sizeof(dst), "hello!"), ERANGE_AND_RESET);
  EXPECT_EQ(strcpy_s(dst, sizeof(dst), dst), EOK);  // onto itself: nothing to copy, as in securec
  EXPECT_STREQ(dst, "");
  EXPECT_EQ(strncpy_s(dst, sizeof(dst), "abcdefgh", 3), EOK);  // a longer source cut at count
  EXPECT_STREQ(dst, "abc");
  EXPECT_EQ(strcat_s(dst, sizeof(dst), "de"), EOK);
  EXPECT_STREQ(dst, "abcde");
  EXPECT_EQ(strcat_s(dst, sizeof(dst), "f"), ERANGE_AND_RESET);
  EXPECT_STREQ(dst, "");
  EXPECT_EQ(strncat_s(dst, sizeof(dst), "xyz", 2), EOK);
  EXPECT_STREQ(dst, "xy");
}

TEST(Securec, PrintfFamilyReturnsMinusOneOnOverflow) {
  char dst[8];
  EXPECT_EQ(sprintf_s(dst, sizeof(dst), "%d-%s", 42, "ok"), 5);
  EXPECT_STREQ(dst, "42-ok");
  EXPECT_EQ(sprintf_s(dst, sizeof(dst), "%s", "too long"), -1);
  EXPECT_STREQ(dst, "");
  EXPECT_EQ(snprintf_s(dst, sizeof(dst), 3, "%s", "abcdef"), -1);  // cut at count < destMax: kept
  EXPECT_STREQ(dst, "abc");
  EXPECT_EQ(snprintf_s(dst, sizeof(dst), sizeof(dst) - 1, "%s", "abcd"), 4);
  EXPECT_EQ(snprintf_truncated_s(dst, sizeof(dst), "%s", "abcdefghij"), 7);
  EXPECT_STREQ(dst, "abcdefg");
}

TEST(Slog, RecordsAtOrAboveTheLevelGoToStderr) {
  ASSERT_EQ(dlog_setlevel(OP, DLOG_WARN, 0), 0);
  EXPECT_EQ(CheckLogLevel(OP, DLOG_INFO), 0);
  EXPECT_EQ(CheckLogLevel(OP, DLOG_ERROR), 1);
  EXPECT_EQ(CheckLogLevel(INVLID_MOUDLE_ID, DLOG_ERROR), 0);
  EXPECT_EQ(dlog_setlevel(OP, 9, 0), -1);
  int32_t event = -1;
  EXPECT_EQ(dlog_getlevel(OP, &event), DLOG_WARN);
  EXPECT_EQ(event, 0);
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  dlog_info(OP, "hidden %d", 1);
  DlogSub(OP, "OP_TILING", DLOG_WARN, "shown %d", 2);
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out, "");
  EXPECT_EQ(err.find("hidden"), std::string::npos);
  EXPECT_NE(err.find("[WARNING] OP: [" __FILE__ ":"), std::string::npos) << err;
  EXPECT_NE(err.find("][OP_TILING]shown 2\n"), std::string::npos) << err;
  ASSERT_EQ(dlog_setlevel(static_cast<int32_t>(ALL_MODULE), DLOG_ERROR, 0), 0);
  EXPECT_EQ(CheckLogLevel(GE, DLOG_WARN), 0);
}

TEST(ErrorManager, ReportsAreKeptInOrderUntilRead) {
  ErrorManager& em = ErrorManager::GetInstance();
  em.GetErrorMessage();  // start empty
  int line = __LINE__ + 1;
  REPORT_INNER_ERROR("E89999", "tiling of %s failed", "Add");
  em.ATCReportErrMessage("E10001", {"value", "param"}, {"-1", "axis"});
  EXPECT_EQ(em.GetRawErrorMessages().size(), 2u);
  std::string where = "[host_support_test.cpp:" + std::to_string(line) + "][TestBody] ";
  EXPECT_EQ(em.GetErrorMessage(), "E89999: " + where + "tiling of Add failed\nE10001: param: axis, value: -1\n");
  EXPECT_EQ(em.GetErrorMessage(), "");
}

TEST(Ranges, InputsRangeOverTheirShapeAndOutputsAreFilledByTheOp) {
  tcemu::host::OpCall call;
  call.inputShapes.push_back(gert::StorageShape({4, 5}, {4, 5}));
  call.inputTensors.emplace_back(call.inputShapes.back(), gert::StorageFormat(), ge::DT_FLOAT);
  call.inputInstances = tcemu::host::instancesOf({0}, 1);
  call.outputShapes.resize(1);
  gert::InferShapeRangeContext context(&call);
  const gert::Range<gert::Shape>* in = context.GetInputShapeRange(0);
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->GetMin(), in->GetMax());
  EXPECT_EQ(in->GetMax()->GetDim(1), 5);
  EXPECT_EQ(context.GetRequiredInputShapeRange(0), in);
  EXPECT_EQ(context.GetInputShapeRange(1), nullptr);
  gert::Range<gert::Shape>* out = context.GetOutputShapeRange(0);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->GetMax()->GetDimNum(), 0u);
  *out->GetMin() = gert::Shape({1, 5});
  *out->GetMax() = gert::Shape({4, 5});
  EXPECT_FALSE(*out == *in);
  *out->GetMin() = *in->GetMin();
  EXPECT_TRUE(*out == *in);  // different pointers, equal bounds
  EXPECT_EQ(context.GetOutputShapeRange(1), nullptr);
}

TEST(TypeNames, SerialStringsAreCanns) {
  EXPECT_EQ(ge::TypeUtils::DataTypeToSerialString(ge::DT_FLOAT16), "DT_FLOAT16");
  EXPECT_EQ(ge::TypeUtils::DataTypeToSerialString(ge::DT_BF16), "DT_BF16");
  EXPECT_EQ(ge::TypeUtils::DataTypeToSerialString(static_cast<ge::DataType>(999)), "UNDEFINED");
  EXPECT_EQ(ge::TypeUtils::FormatToSerialString(ge::FORMAT_ND), "ND");
  EXPECT_EQ(ge::TypeUtils::FormatToSerialString(ge::FORMAT_FRACTAL_NZ), "FRACTAL_NZ");
  auto withSub = static_cast<ge::Format>(ge::FORMAT_FRACTAL_Z | (16 << 8));
  EXPECT_EQ(ge::GetPrimaryFormat(withSub), ge::FORMAT_FRACTAL_Z);
  EXPECT_EQ(ge::GetSubFormat(withSub), 16);
  EXPECT_EQ(ge::TypeUtils::FormatToSerialString(withSub), "FRACTAL_Z:16");
  EXPECT_EQ(ge::TypeUtils::FormatToSerialString(static_cast<ge::Format>(250)), "RESERVED");
}

}  // namespace
