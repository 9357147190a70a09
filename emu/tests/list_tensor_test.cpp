// Tensor-list arguments (msopgen DYNAMIC): the GM layout the project launch writes (tcemu::project::listTensorLayout,
// CANN's layout: the example of CANN's ListTensorDesc documentation word for word) and its reading by
// AscendC::ListTensorDesc / TensorDesc, with the checks that replace CANN's device asserts.
#include "emu/project_launch.h"
#include "emu_test_util.h"
#include "kernel_operator_list_tensor_intf.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;

namespace {

class ListTensorTest : public EmuTest {};

TEST_F(ListTensorTest, TheLayoutIsCannsDocumentedOne) {
  // CANN's example: two 3-dim tensors [1, 2, 3] and [3, 4, 5]; the pointer table starts at byte 72.
  std::vector<uint64_t> words = tcemu::project::listTensorLayout({{1, 2, 3}, {3, 4, 5}}, {0x1000, 0x2000});
  std::vector<uint64_t> want = {72, 3, 1, 2, 3, 3 | (1ull << 32), 3, 4, 5, 0x1000, 0x2000};
  EXPECT_EQ(words, want);
  // Each tensor has its own rank; a 0-dim one has a 0xffffffff filler word.
  words = tcemu::project::listTensorLayout({{7}, {}, {2, 9}}, {1, 2, 3});
  want = {64, 1, 7, 1ull << 32, 0xffffffff, 2 | (2ull << 32), 2, 9, 1, 2, 3};
  EXPECT_EQ(words, want);
}

TEST_F(ListTensorTest, ListTensorDescReadsPointersShapesAndIndexes) {
  std::vector<float> a(6), b(60), c(1);
  std::vector<uint64_t> words = tcemu::project::listTensorLayout(
      {{1, 2, 3}, {3, 4, 5}, {}}, {reinterpret_cast<uint64_t>(a.data()), reinterpret_cast<uint64_t>(b.data()),
                                   reinterpret_cast<uint64_t>(c.data())});
  auto* gm = reinterpret_cast<__gm__ void*>(words.data());
  ListTensorDesc list(gm, static_cast<uint32_t>(words.size() * 8), 3);
  EXPECT_EQ(list.GetSize(), 3u);
  EXPECT_EQ(list.GetDataPtr<float>(1), b.data());
  EXPECT_EQ(list.GetDataPtr<float>(2), c.data());
  uint64_t shape[8] = {0};
  TensorDesc<float> desc;
  desc.SetShapeAddr(shape);
  list.GetDesc(desc, 1);
  EXPECT_EQ(desc.GetDim(), 3u);
  EXPECT_EQ(desc.GetIndex(), 1u);
  EXPECT_EQ(desc.GetShape(0), 3u);
  EXPECT_EQ(desc.GetShape(2), 5u);
  EXPECT_EQ(desc.GetDataPtr(), b.data());
  EXPECT_EQ(desc.GetDataObj().GetPhyAddr(), b.data());
  list.GetDesc(desc, 2);
  EXPECT_EQ(desc.GetDim(), 0u);
  EXPECT_EQ(desc.GetIndex(), 2u);
  ListTensorDesc later;
  later.Init(gm);
  EXPECT_EQ(later.GetDataPtr<float>(0), a.data());
}

TEST_F(ListTensorTest, MisuseFailsWithTheKernelsLine) {
  std::vector<float> a(4);
  std::vector<uint64_t> words = tcemu::project::listTensorLayout({{4}}, {reinterpret_cast<uint64_t>(a.data())});
  auto* gm = reinterpret_cast<__gm__ void*>(words.data());
  ListTensorDesc list(gm);
  EXPECT_EQ(checkMessage([&] { list.GetDataPtr<float>(1); }), "ListTensorDesc::GetDataPtr(1) of a list of 1 tensors");
  EXPECT_EQ(checkMessage([&] { ListTensorDesc bad(gm, 24, 2); }),
            "ListTensorDesc::Init(length 24, shapeSize 2): the list holds 1 tensors in 32 bytes");
  EXPECT_EQ(checkMessage([&] { ListTensorDesc none(nullptr); }), "ListTensorDesc::Init of a null address");
  EXPECT_EQ(checkMessage([&] {
              ListTensorDesc empty;
              empty.GetDataPtr<float>(0);
            }),
            "ListTensorDesc::GetDataPtr before Init");
  TensorDesc<float> desc;
  EXPECT_EQ(checkMessage([&] { list.GetDesc(desc, 0); }),
            "ListTensorDesc::GetDesc into a TensorDesc with no shape buffer; hint: desc.SetShapeAddr(buf)");
  uint64_t shape[2] = {0};
  desc.SetShapeAddr(shape);
  EXPECT_EQ(checkMessage([&] { desc.GetDim(); }),
            "TensorDesc read before ListTensorDesc::GetDesc filled it; hint: desc.SetShapeAddr(buf), then "
            "list.GetDesc(desc, index)");
  list.GetDesc(desc, 0);
  EXPECT_EQ(checkMessage([&] { desc.GetShape(1); }), "TensorDesc::GetShape(1) of a 1-dim tensor");
  int line = TCEMU_LINE_OF_NEXT();
  auto err = [&] { list.GetDataPtr<float>(5); };
  try {
    err();
    ADD_FAILURE() << "no check";
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.loc.line, line);
  }
}

}  // namespace
