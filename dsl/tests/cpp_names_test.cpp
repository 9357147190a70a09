// The one table of names the generated C++ cannot take from the DSL (dsl/cpp_names.h).
#include "dsl/cpp_names.h"

#include <gtest/gtest.h>

namespace tilecraft::dsl {
namespace {

TEST(CppNames, KeywordsReservedAndGeneratedNamesAreRefused) {
  EXPECT_STREQ(cppNameProblem("delete", CppNameUse::Tensor), "a C++ keyword");
  EXPECT_STREQ(cppNameProblem("_x", CppNameUse::HostScalar), "reserved in C++ (a leading or double underscore)");
  EXPECT_STREQ(cppNameProblem("a__b", CppNameUse::Kernel), "reserved in C++ (a leading or double underscore)");
  EXPECT_STREQ(cppNameProblem("main", CppNameUse::Kernel), "the name the generated host code gives the launcher");
  EXPECT_STREQ(cppNameProblem("workspace", CppNameUse::HostScalar),
               "the name the generated host code gives the workspace");
  EXPECT_STREQ(cppNameProblem("GM_ADDR", CppNameUse::Tensor), "a macro of the AscendC headers");
  for (const char* fine : {"alpha", "N", "a_b", "x1"}) {
    EXPECT_EQ(cppNameProblem(fine, CppNameUse::HostScalar), nullptr) << fine;
  }
}

TEST(CppNames, OnlyAHostScalarCannotBeNamedT) {
  EXPECT_STREQ(cppNameProblem("t", CppNameUse::HostScalar), "the name the generated host code gives the tiling struct");
  EXPECT_EQ(cppNameProblem("t", CppNameUse::Tensor), nullptr);
  EXPECT_EQ(cppNameProblem("t", CppNameUse::Kernel), nullptr);
  EXPECT_STREQ(cppNameProblem("tanh", CppNameUse::Kernel),
               "a function of the C library, and the kernel is an extern \"C\" function beside it");
  EXPECT_EQ(cppNameProblem("tanh", CppNameUse::Tensor), nullptr);
  EXPECT_EQ(cppNameProblem("exp", CppNameUse::HostScalar), nullptr);
}

TEST(CppNames, TheErrorNamesWhatAndWhy) {
  EXPECT_EQ(cppNameError("parameter", "delete", CppNameUse::Tensor),
            "parameter 'delete' cannot be spelled in the generated C++: it is a C++ keyword");
  EXPECT_EQ(cppNameError("parameter", "alpha", CppNameUse::HostScalar), "");
}

}  // namespace
}  // namespace tilecraft::dsl
