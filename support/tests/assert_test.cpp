// TC_ASSERT is always on. This file is compiled with NDEBUG whatever the build type, so that the same test shows
// assert() gone and TC_ASSERT still firing, with the location, the condition and the message.
#ifndef NDEBUG
#define NDEBUG 1
#endif

#include <gtest/gtest.h>

#include <cassert>
#include <string>

#include "support/assert.h"

namespace tilecraft::support {
namespace {

TEST(TcAssert, PlainAssertVanishesInThisFile) {
  int evaluated = 0;
  assert(++evaluated < 0);  // compiled out: NDEBUG is in effect here
  EXPECT_EQ(evaluated, 0);
}

TEST(TcAssertDeathTest, FiresUnderNdebugWithFileLineConditionAndMessage) {
  int step = 0;
  EXPECT_DEATH(TC_ASSERT(step > 0, "step {} is not positive", step),
               "^tilecraft internal error: [^\n]*support/tests/assert_test\\.cpp:[0-9]+: check 'step > 0' failed: "
               "step 0 is not positive\nhint: this is a bug in Tilecraft, not in the input; please report it with "
               "this message\n$");
}

TEST(TcAssertDeathTest, AcceptsNoMessageOrAReadyString) {
  EXPECT_DEATH(TC_ASSERT(1 + 1 == 3), "assert_test\\.cpp:[0-9]+: check '1 \\+ 1 == 3' failed\n");
  std::string why = "built elsewhere {not a format}";
  EXPECT_DEATH(TC_ASSERT(why.empty(), why), "check 'why.empty\\(\\)' failed: built elsewhere \\{not a format\\}\n");
}

TEST(TcAssert, PassingCheckEvaluatesNoMessageArgument) {
  int formatted = 0;
  auto costly = [&] { return ++formatted; };
  TC_ASSERT(formatted == 0, "costly {}", costly());
  EXPECT_EQ(formatted, 0);
}

}  // namespace
}  // namespace tilecraft::support
