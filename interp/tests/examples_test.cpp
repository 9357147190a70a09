// The interpreter on every example, on tiny shapes, against values computed by hand (exact where the values are
// exactly representable, else against the formula within a few ulps of the output dtype).
#include <cmath>

#include "interp/tests/interp_fixture.h"

namespace tilecraft::interp::testing {
namespace {

using dsl::DType;
using Idx = std::vector<int64_t>;

double f32(double v) { return static_cast<float>(v); }

TEST(InterpExamples, AddSumsElementwiseAcrossEveryCoreAndRoundsToF16) {
  auto p = loadExample("elementwise/add.tile");
  RunRequest rq;
  rq.dims = {{"N", 100}};  // 100 over 48 cores: shares of 3 and 2, every one a tail tile
  rq.inputs["x"] = make(DType::F16, {100}, [](const Idx& i) { return i[0] == 99 ? 2048.0 : i[0]; });
  rq.inputs["y"] = make(DType::F16, {100}, [](const Idx& i) { return i[0] == 99 ? 1.0 : 0.5; });
  auto out = runOk(*p, rq);
  ASSERT_EQ(out.size(), 1u);
  const HostTensor& z = out.at("z");
  EXPECT_EQ(z.dtype, DType::F16);
  for (int i = 0; i < 99; ++i) EXPECT_EQ(z.data[i], i + 0.5) << i;
  EXPECT_EQ(z.data[99], 2048.0);  // 2049 is halfway between f16 neighbours 2048 and 2050: ties to even
}

TEST(InterpExamples, LeakyReluUsesTheDefaultSlopeOrTheGivenAttribute) {
  auto p = loadExample("elementwise/leaky_relu.tile");
  RunRequest rq;
  rq.dims = {{"N", 3}};
  rq.inputs["x"] = values(DType::F32, {3}, {-2, 3, 0});
  auto out = runOk(*p, rq);
  EXPECT_EQ(out.at("y").data, (std::vector<double>{f32(-2.0f * 0.01f), 3, 0}));
  rq.attrs["slope"] = 0.5;
  EXPECT_EQ(runOk(*p, rq).at("y").data, (std::vector<double>{-1, 3, 0}));
}

TEST(InterpExamples, GeluF16IsTheTanhApproximationComputedInF32) {
  auto p = loadExample("elementwise/gelu_f16.tile");
  RunRequest rq;
  rq.dims = {{"M", 1}, {"N", 3}};
  rq.inputs["x"] = values(DType::F16, {1, 3}, {0, 1, -4});
  auto y = runOk(*p, rq).at("y");
  EXPECT_EQ(y.data[0], 0.0);
  double g1 = 0.5 * (1 + std::tanh(std::sqrt(2 / M_PI) * (1 + 0.044715)));
  EXPECT_EQ(y.data[1], roundTo(g1, DType::F16));
  EXPECT_NEAR(y.data[2], -4 * 0.5 * (1 + std::tanh(std::sqrt(2 / M_PI) * (-4 - 0.044715 * 64))), 1e-6);
}

TEST(InterpExamples, BiasAddBroadcastsTheBiasRowOverEveryRow) {
  auto p = loadExample("broadcast/bias_add.tile");
  RunRequest rq;
  rq.dims = {{"M", 50}};  // N is the constant 1024: four column tiles of 256
  rq.inputs["x"] = make(DType::F32, {50, 1024}, [](const Idx& i) { return i[0]; });
  rq.inputs["bias"] = make(DType::F32, {1, 1024}, [](const Idx& i) { return i[1] * 0.25; });
  auto y = runOk(*p, rq).at("y");
  for (int i : {0, 7, 49}) {
    for (int j : {0, 255, 256, 1023}) EXPECT_EQ(y.data[i * 1024 + j], i + j * 0.25) << i << "," << j;
  }
}

TEST(InterpExamples, ScaleShiftSubtractsThePerRowMeanAndScales) {
  auto p = loadExample("broadcast/scale_shift.tile");
  RunRequest rq;
  rq.dims = {{"M", 3}, {"N", 5}};
  rq.attrs["scale"] = 2;
  rq.inputs["x"] = make(DType::F32, {3, 5}, [](const Idx& i) { return i[0] * 10 + i[1]; });
  rq.inputs["mean"] = values(DType::F32, {3, 1}, {1, 2, 3});
  auto y = runOk(*p, rq).at("y");
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 5; ++j) EXPECT_EQ(y.data[i * 5 + j], (i * 10 + j - (i + 1)) * 2.0);
  }
}

TEST(InterpExamples, SumRowsAndMaxColsReduceOverEitherAxis) {
  auto sum = loadExample("reduction/sum_rows.tile");
  RunRequest rq;
  rq.dims = {{"M", 5}, {"N", 7}};
  rq.inputs["x"] = make(DType::F32, {5, 7}, [](const Idx& i) { return i[0] * i[1]; });
  auto y = runOk(*sum, rq).at("y");
  EXPECT_EQ(y.shape, (std::vector<int64_t>{5, 1}));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y.data[i], i * 21.0);

  auto max = loadExample("reduction/max_cols.tile");
  rq.dims = {{"M", 37}, {"N", 5}};  // three row tiles of 16, the last one 5 rows long
  rq.inputs["x"] =
      make(DType::F32, {37, 5}, [](const Idx& i) { return i[0] == 30 + i[1] ? 100.0 + i[1] : -(i[0] + i[1]); });
  y = runOk(*max, rq).at("y");
  EXPECT_EQ(y.data, (std::vector<double>{100, 101, 102, 103, 104}));
}

TEST(InterpExamples, CumsumRowsAndColsArePrefixSumsCarriedAcrossTiles) {
  auto rows = loadExample("scan/cumsum_rows.tile");
  RunRequest rq;
  rq.dims = {{"M", 3}, {"N", 4}};
  rq.inputs["x"] = make(DType::F32, {3, 4}, [](const Idx& i) { return i[0] + 1.0; });
  auto y = runOk(*rows, rq).at("y");
  EXPECT_EQ(y.data, (std::vector<double>{1, 2, 3, 4, 2, 4, 6, 8, 3, 6, 9, 12}));

  auto cols = loadExample("scan/cumsum_cols.tile");
  rq.dims = {{"M", 70}, {"N", 3}};  // row tiles of 32: 32 + 32 + 6, the carry crosses two tile boundaries
  rq.inputs["x"] = make(DType::F32, {70, 3}, [](const Idx& i) { return i[1] + 1.0; });
  y = runOk(*cols, rq).at("y");
  for (int i : {0, 31, 32, 69}) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(y.data[i * 3 + j], (i + 1.0) * (j + 1)) << i << "," << j;
  }
}

TEST(InterpExamples, SoftmaxAndLogSoftmaxOfEqualLogitsAreUniform) {
  auto sm = loadExample("softmax/softmax_rows.tile");
  RunRequest rq;
  rq.dims = {{"M", 3}, {"N", 4}};
  rq.inputs["x"] = make(DType::F16, {3, 4}, [](const Idx& i) { return i[0] == 2 ? (i[1] == 0 ? 10.0 : -10.0) : i[0]; });
  auto y = runOk(*sm, rq).at("y");
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(y.data[j], 0.25);
    EXPECT_EQ(y.data[4 + j], 0.25);
  }
  double e = std::exp(-20.0);
  EXPECT_EQ(y.data[8], roundTo(f32(1 / (1 + 3 * f32(e))), DType::F16));
  EXPECT_EQ(y.data[9], roundTo(f32(f32(e) / f32(1 + 3 * f32(e))), DType::F16));

  auto ls = loadExample("softmax/log_softmax.tile");
  rq.inputs.clear();
  rq.inputs["x"] = make(DType::F32, {3, 4}, [](const Idx& i) { return i[0] * 3.0; });
  y = runOk(*ls, rq).at("y");
  for (double v : y.data) EXPECT_EQ(v, f32(-f32(std::log(4.0))));
}

TEST(InterpExamples, LayerNormAndRmsNormNormaliseEachRow) {
  auto ln = loadExample("normalization/layer_norm.tile");
  RunRequest rq;
  rq.dims = {{"M", 2}, {"N", 2}};
  rq.inputs["x"] = values(DType::F16, {2, 2}, {1, 3, -5, 5});
  rq.inputs["gamma"] = values(DType::F32, {1, 2}, {2, 2});
  rq.inputs["beta"] = values(DType::F32, {1, 2}, {0.5, 0.5});
  auto y = runOk(*ln, rq).at("y");
  // (x - mean) / sqrt(var + 1e-5): +-1 up to 5e-6, which f16 rounds away.
  EXPECT_EQ(y.data, (std::vector<double>{-1.5, 2.5, -1.5, 2.5}));

  auto rms = loadExample("normalization/rms_norm.tile");
  rq.inputs.clear();
  rq.inputs["x"] = values(DType::F32, {2, 2}, {3, 4, 0, 0});
  rq.inputs["gamma"] = values(DType::F32, {1, 2}, {1, 2});
  y = runOk(*rms, rq).at("y");
  double r = 1 / std::sqrt(12.5 + 1e-6);
  EXPECT_NEAR(y.data[0], 3 * r, 3e-7);
  EXPECT_NEAR(y.data[1], 8 * r, 6e-7);
  EXPECT_EQ(y.data[2], 0.0);
}

TEST(InterpExamples, LossesAccumulateEveryCoresPartialSumAtomically) {
  auto mse = loadExample("loss/mse_loss.tile");
  RunRequest rq;
  rq.dims = {{"N", 100}};
  rq.inputs["x"] = make(DType::F32, {100}, [](const Idx& i) { return i[0] / 4.0; });
  rq.inputs["y"] = make(DType::F32, {100}, [](const Idx&) { return 0.0; });
  auto out = runOk(*mse, rq).at("out");
  EXPECT_NEAR(out.data[0], 328350.0 / 16 / 100, 205.22 * 1e-6);  // sum of i^2 for i < 100 is 328350

  auto l1 = loadExample("loss/smooth_l1_loss.tile");
  rq.dims = {{"N", 3}};
  rq.inputs["x"] = values(DType::F32, {3}, {0.5, 2, -3});
  rq.inputs["y"] = values(DType::F32, {3}, {0, 0, 0});
  EXPECT_EQ(runOk(*l1, rq).at("out").data, (std::vector<double>{0.125 + 1.5 + 2.5}));
}

TEST(InterpExamples, OptimizersUpdateTheirTensorsInPlace) {
  auto sgd = loadExample("optimizer/sgd_momentum.tile");
  RunRequest rq;
  rq.dims = {{"N", 4}};
  rq.attrs = {{"lr", 0.5}, {"momentum", 0.5}};
  rq.inputs["param"] = values(DType::F32, {4}, {1, 2, 3, 4});
  rq.inputs["grad"] = values(DType::F32, {4}, {1, 1, 1, 1});
  rq.inputs["velocity"] = values(DType::F32, {4}, {2, 4, 6, 8});
  auto out = runOk(*sgd, rq);
  ASSERT_EQ(out.size(), 2u);  // param and velocity are in/out; grad is only read
  EXPECT_EQ(out.at("velocity").data, (std::vector<double>{2, 3, 4, 5}));
  EXPECT_EQ(out.at("param").data, (std::vector<double>{0, 0.5, 1, 1.5}));

  auto adam = loadExample("optimizer/adam.tile");
  rq.attrs = {{"lr", 0.1}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}, {"step", 1}};
  rq.inputs = {{"param", values(DType::F32, {4}, {1, 1, 1, 1})},
               {"grad", values(DType::F32, {4}, {1, -1, 2, 0})},
               {"m", values(DType::F32, {4}, {0, 0, 0, 0})},
               {"v", values(DType::F32, {4}, {0, 0, 0, 0})}};
  out = runOk(*adam, rq);
  // At step 1 with zero moments Adam moves each parameter by lr * sign(grad).
  EXPECT_NEAR(out.at("param").data[0], 0.9, 1e-6);
  EXPECT_NEAR(out.at("param").data[1], 1.1, 1e-6);
  EXPECT_NEAR(out.at("param").data[2], 0.9, 1e-6);
  EXPECT_EQ(out.at("param").data[3], 1.0);
  EXPECT_NEAR(out.at("m").data[2], 0.2, 1e-7);
  EXPECT_NEAR(out.at("v").data[2], 0.004, 1e-7);
}

TEST(InterpExamples, PoolingAveragesAndMaxesWindowsWithPaddedReadsPastTheEnd) {
  auto avg = loadExample("pooling/avg_pool1d.tile");
  RunRequest rq;
  rq.dims = {{"N", 2}, {"L", 8}, {"OL", 2}, {"C", 3}};
  rq.inputs["x"] = make(DType::F16, {2, 8, 3}, [](const Idx& i) { return i[0] * 100 + i[1] * 4 + i[2]; });
  auto y = runOk(*avg, rq).at("y");
  // mean over l in [4o, 4o+4) of n*100 + 4l + c = n*100 + 16o + 6 + c
  for (int n = 0; n < 2; ++n) {
    for (int o = 0; o < 2; ++o) {
      for (int c = 0; c < 3; ++c) EXPECT_EQ(y.data[(n * 2 + o) * 3 + c], n * 100 + 16 * o + 6 + c);
    }
  }

  auto max = loadExample("pooling/max_pool2d_nhwc.tile");
  rq.dims = {{"B", 1}, {"H", 3}, {"W", 4}, {"OH", 2}, {"OW", 2}, {"C", 2}};
  rq.inputs.clear();
  rq.inputs["x"] = make(DType::F32, {1, 3, 4, 2}, [](const Idx& i) { return -(i[1] * 10 + i[2]) - 0.5 * i[3]; });
  y = runOk(*max, rq).at("y");
  // Window (oh, ow) starts at (2oh, 2ow); the max of -(10h + w) is at its first element. Row 3 does not exist:
  // the second row of windows reads the pad (-3.4e38), which never wins.
  for (int oh = 0; oh < 2; ++oh) {
    for (int ow = 0; ow < 2; ++ow) {
      for (int c = 0; c < 2; ++c) EXPECT_EQ(y.data[(oh * 2 + ow) * 2 + c], -(20 * oh + 2 * ow) - 0.5 * c);
    }
  }
}

TEST(InterpExamples, EmbeddingAndGatherLastPickRowsAndColumnsByIndex) {
  auto emb = loadExample("gather/embedding.tile");
  RunRequest rq;
  rq.dims = {{"T", 3}, {"V", 4}, {"D", 5}};
  rq.inputs["ids"] = values(DType::I32, {3}, {2, 0, 3});
  rq.inputs["table"] = make(DType::F16, {4, 5}, [](const Idx& i) { return i[0] * 10 + i[1]; });
  auto out = runOk(*emb, rq).at("out");
  const int ids[] = {2, 0, 3};
  for (int t = 0; t < 3; ++t) {
    for (int d = 0; d < 5; ++d) EXPECT_EQ(out.data[t * 5 + d], ids[t] * 10 + d);
  }

  auto g = loadExample("gather/gather_last.tile");
  rq.dims = {{"M", 2}, {"N", 4}, {"K", 3}};
  rq.inputs.clear();
  rq.inputs["x"] = make(DType::F32, {2, 4}, [](const Idx& i) { return i[0] * 10 + i[1]; });
  rq.inputs["index"] = values(DType::I32, {2, 3}, {3, 0, 3, 1, 1, 2});
  EXPECT_EQ(runOk(*g, rq).at("out").data, (std::vector<double>{3, 0, 3, 11, 11, 12}));
}

// Small integers make every product and sum exact in f16, bf16 and f32.
double a(const Idx& i) { return (i[0] + 2 * i[1]) % 5 - 2; }
double b(const Idx& i) { return (3 * i[0] + i[1]) % 4 - 1; }

TEST(InterpExamples, MatmulsAccumulateOverKTilesInF32) {
  auto mm = loadExample("matmul/matmul.tile");
  RunRequest rq;
  rq.dims = {{"M", 130}, {"N", 3}, {"K", 70}};  // two M blocks (128 + 2) and two K tiles (64 + 6)
  rq.inputs["a"] = make(DType::F16, {130, 70}, a);
  rq.inputs["b"] = make(DType::F16, {70, 3}, b);
  auto c = runOk(*mm, rq).at("c");
  for (int i : {0, 127, 128, 129}) {
    for (int j = 0; j < 3; ++j) {
      double want = 0;
      for (int k = 0; k < 70; ++k) want += a({i, k}) * b({k, j});
      EXPECT_EQ(c.data[i * 3 + j], want) << i << "," << j;
    }
  }

  auto bt = loadExample("matmul/matmul_bt.tile");
  rq.dims = {{"M", 3}, {"N", 2}, {"K", 5}};
  rq.inputs.clear();
  rq.inputs["a"] = make(DType::BF16, {3, 5}, a);
  rq.inputs["b"] = make(DType::BF16, {2, 5}, b);  // stored (N, K)
  c = runOk(*bt, rq).at("c");
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j) {
      double want = 0;
      for (int k = 0; k < 5; ++k) want += a({i, k}) * b({j, k});
      EXPECT_EQ(c.data[i * 2 + j], want);
    }
  }

  auto bmm = loadExample("matmul/batch_matmul.tile");
  rq.dims = {{"BATCH", 2}, {"M", 2}, {"N", 2}, {"K", 3}};
  rq.inputs.clear();
  rq.inputs["a"] = make(DType::F16, {2, 2, 3}, [](const Idx& i) { return i[0] == 0 ? a({i[1], i[2]}) : 1.0; });
  rq.inputs["b"] = make(DType::F16, {2, 3, 2}, [](const Idx& i) { return i[0] == 0 ? b({i[1], i[2]}) : 2.0; });
  c = runOk(*bmm, rq).at("c");
  for (int j = 0; j < 4; ++j) EXPECT_EQ(c.data[4 + j], 6.0);  // batch 1: ones @ twos over K = 3
  double want00 = 0;
  for (int k = 0; k < 3; ++k) want00 += a({0, k}) * b({k, 0});
  EXPECT_EQ(c.data[0], want00);
}

TEST(InterpExamples, MixedKernelsApplyTheirEpilogueToTheAccumulator) {
  auto relu = loadExample("mixed/matmul_bias_relu.tile");
  RunRequest rq;
  rq.dims = {{"M", 3}, {"N", 4}, {"K", 5}};
  rq.inputs["a"] = make(DType::F16, {3, 5}, a);
  rq.inputs["b"] = make(DType::F16, {5, 4}, b);
  rq.inputs["bias"] = make(DType::F32, {1, 4}, [](const Idx& i) { return i[1] - 1.5; });
  auto y = runOk(*relu, rq).at("y");
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      double s = j - 1.5;
      for (int k = 0; k < 5; ++k) s += a({i, k}) * b({k, j});
      EXPECT_EQ(y.data[i * 4 + j], std::max(s, 0.0)) << i << "," << j;
    }
  }

  auto gelu = loadExample("mixed/matmul_gelu_scale.tile");
  rq.inputs.erase("bias");
  rq.attrs["scale"] = 2;
  y = runOk(*gelu, rq).at("y");
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      double s = 0;
      for (int k = 0; k < 5; ++k) s += a({i, k}) * b({k, j});
      double g = 0.5 * s * (1 + std::tanh(std::sqrt(2 / M_PI) * (s + 0.044715 * s * s * s)));
      EXPECT_NEAR(y.data[i * 4 + j], 2 * g, 1e-6 * std::max(1.0, std::fabs(2 * g)));
    }
  }
}

}  // namespace
}  // namespace tilecraft::interp::testing
