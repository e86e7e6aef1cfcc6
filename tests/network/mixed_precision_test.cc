// --precision auto (compiler/network/mixed_precision.h): each candidate layer measured alone,
// the assignment kept within the budget, the extremes (no budget: no lossy layer int4; a budget
// beyond every loss: every layer int4), the chosen graph carrying the choice, and bad budgets.
#include "compiler/network/mixed_precision.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "compiler/network/model_pipeline.h"
#include "compiler/passes/pipeline.h"
#include "compiler/quantize/quantize.h"
#include "workloads/models/models.h"

namespace npu::compiler {
namespace {

struct Calibrated {
  ir::Graph f;
  quantize::TensorRanges ranges;
  std::vector<std::vector<interp::HostTensor>> samples;
};

Calibrated Prepare(const std::string& model) {
  Calibrated s;
  StatusOr<ir::Graph> g = workloads::BuildModel(model, {});
  EXPECT_TRUE(g.ok()) << g.status().message();
  s.f = std::move(g).value();
  passes::PassContext ctx;
  EXPECT_TRUE(passes::RunPipeline(s.f, {}, ctx).ok());
  quantize::CalibrationSet calib;
  for (uint32_t i = 0; i < 2; ++i) {
    calib.samples.push_back(workloads::MakeInputs(s.f, quantize::kCalibrationSeed + i));
  }
  StatusOr<quantize::TensorRanges> r = quantize::CalibrateRanges(s.f, calib);
  EXPECT_TRUE(r.ok()) << r.status().message();
  s.ranges = std::move(r).value();
  s.samples = calib.samples;
  return s;
}

MixedPrecision Choose(const Calibrated& s, double budget) {
  StatusOr<MixedPrecision> m = ChooseMixedPrecision(s.f, s.ranges, {}, s.samples, {.budget_db = budget, .target_db = std::nullopt});
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : MixedPrecision{};
}

TEST(MixedPrecision, TheChoiceStaysWithinTheBudgetAndIsWhatTheTableSays) {
  const Calibrated s = Prepare("small_cnn");
  const MixedPrecision m = Choose(s, 10.0);
  ASSERT_EQ(m.layers.size(), 4u);  // three convolutions and the fully connected layer
  EXPECT_LE(m.int8_snr_db - m.snr_db, 10.0);
  size_t int4 = 0;
  for (const LayerPrecision& l : m.layers) {
    EXPECT_GT(l.macs, 0u) << l.layer;
    EXPECT_GE(l.alone_loss_db, 0.0) << l.layer;
    EXPECT_EQ(l.numbers == LayerNumbers::kInt4, m.int4_layers.count(l.layer) == 1) << l.layer;
    EXPECT_NE(l.numbers, LayerNumbers::kFp16) << l.layer;  // a budget never buys FP16
    int4 += l.numbers == LayerNumbers::kInt4;
  }
  EXPECT_EQ(int4, m.int4_layers.size());
  EXPECT_EQ(m.assignments_measured, 1 + 4 + int(m.layers.size()) -
                                        int(std::count_if(m.layers.begin(), m.layers.end(),
                                                          [&](const LayerPrecision& l) {
                                                            return l.alone_loss_db > 10.0;
                                                          })));
  EXPECT_NE(FormatMixedPrecision(m).find("of 4 layers int4"), std::string::npos);
}

TEST(MixedPrecision, NoBudgetKeepsLossyLayersInt8AndAWideOneTakesThemAll) {
  const Calibrated s = Prepare("mlp");
  const MixedPrecision none = Choose(s, 0.0);
  for (const LayerPrecision& l : none.layers) {
    if (l.alone_loss_db > 0) {
      EXPECT_NE(l.numbers, LayerNumbers::kInt4) << l.layer;
    }
  }
  EXPECT_GE(none.snr_db, none.int8_snr_db);
  const MixedPrecision all = Choose(s, 1000.0);
  EXPECT_EQ(all.int4_layers.size(), all.layers.size());
  EXPECT_LT(all.snr_db, all.int8_snr_db);  // int4 everywhere costs something
}

TEST(MixedPrecision, ThePipelineQuantisesWhatItChose) {
  ModelPipelineOptions o;
  o.auto_precision = true;
  o.accuracy_budget_db = 1000.0;
  o.calibration_samples = 2;
  StatusOr<QuantizedModel> m = QuantizeModel("small_cnn", o);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->int4_layers.size(), 4u);
  EXPECT_NE(m->mixed_precision.find("4 of 4 layers int4"), std::string::npos) << m->mixed_precision;
}

TEST(MixedPrecision, ABudgetBelowZeroOrNotANumberIsRefused) {
  const Calibrated s = Prepare("mlp");
  for (double bad : {-1.0, std::nan(""), double(INFINITY)}) {
    StatusOr<MixedPrecision> m = ChooseMixedPrecision(s.f, s.ranges, {}, s.samples, {.budget_db = bad, .target_db = std::nullopt});
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.status().message().find("accuracy budget"), std::string::npos);
  }
}

MixedPrecision Target(const Calibrated& s, double target) {
  StatusOr<MixedPrecision> m = ChooseMixedPrecision(s.f, s.ranges, {}, s.samples, {.target_db = target});
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : MixedPrecision{};
}

// A target above all-int8 starts from every layer FP16 and returns layers to int8 while it
// holds: some FP16 layers, not all, and the target met.
TEST(MixedPrecision, ATargetAboveInt8MakesLayersFp16UntilItIsMet) {
  const Calibrated s = Prepare("small_cnn");
  const MixedPrecision base = Target(s, -100.0);  // met by all-int8: int4 where it holds
  EXPECT_TRUE(base.fp16_layers.empty());
  const double target = base.int8_snr_db + 6.0;
  const MixedPrecision m = Target(s, target);
  EXPECT_GE(m.snr_db, target);
  EXPECT_FALSE(m.fp16_layers.empty());
  EXPECT_LT(m.fp16_layers.size(), m.layers.size());
  for (const LayerPrecision& l : m.layers) {
    EXPECT_EQ(l.numbers == LayerNumbers::kFp16, m.fp16_layers.count(l.layer) == 1) << l.layer;
  }
  // Measured again outside the search: the chosen assignment reaches the target.
  quantize::QuantizeOptions o;
  o.int4_layers = m.int4_layers;
  o.fp16_layers = m.fp16_layers;
  StatusOr<ir::Graph> q = quantize::QuantizeWithRanges(s.f, s.ranges, o);
  ASSERT_TRUE(q.ok()) << q.status().message();
  int conversions = 0;
  for (const ir::Node* n : q->nodes()) {
    conversions += n->kind() == ir::OpKind::kDequantizeLinear || n->kind() == ir::OpKind::kQuantizeLinear;
  }
  EXPECT_GE(conversions, 1);
  const std::string table = FormatMixedPrecision(m);
  EXPECT_NE(table.find(fmt::format("{} FP16", m.fp16_layers.size())), std::string::npos) << table;
  EXPECT_NE(table.find("int8: -dB"), std::string::npos) << table;
}

// With a cycle prediction, the mix is kept only if faster than every layer FP16.
TEST(MixedPrecision, AMixSlowerThanAllFp16GivesWayToIt) {
  const Calibrated s = Prepare("small_cnn");
  const MixedPrecision base = Target(s, -100.0);
  const double target = base.int8_snr_db + 6.0;
  std::set<std::string> asked;
  const auto predict = [&](bool mix_faster) {
    return [&, mix_faster](const std::set<std::string>&, const std::set<std::string>& fp16)
               -> StatusOr<uint64_t> {
      const bool all = fp16.size() == base.layers.size();
      return uint64_t(all == mix_faster ? 2000 : 1000);
    };
  };
  StatusOr<MixedPrecision> mix =
      ChooseMixedPrecision(s.f, s.ranges, {}, s.samples, {.target_db = target, .cycles = predict(true)});
  ASSERT_TRUE(mix.ok()) << mix.status().message();
  EXPECT_LT(mix->fp16_layers.size(), mix->layers.size());
  EXPECT_EQ(mix->mix_cycles, 1000u);
  EXPECT_EQ(mix->all_fp16_cycles, 2000u);
  EXPECT_NE(FormatMixedPrecision(*mix).find("the mix kept"), std::string::npos);
  StatusOr<MixedPrecision> all =
      ChooseMixedPrecision(s.f, s.ranges, {}, s.samples, {.target_db = target, .cycles = predict(false)});
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->fp16_layers.size(), all->layers.size());
  EXPECT_GE(all->snr_db, target);
  EXPECT_NE(FormatMixedPrecision(*all).find("every layer FP16 kept"), std::string::npos);
}

TEST(MixedPrecision, ATargetNothingReachesNamesTheBestReachable) {
  const Calibrated s = Prepare("mlp");
  StatusOr<MixedPrecision> m = ChooseMixedPrecision(s.f, s.ranges, {}, s.samples, {.target_db = 500.0});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(m.status().message().find("accuracy target 500.0 dB cannot be reached: the best reachable"),
            std::string::npos)
      << m.status().message();
  m = ChooseMixedPrecision(s.f, s.ranges, {}, s.samples, {.target_db = std::nan("")});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("accuracy target"), std::string::npos);
}

}  // namespace
}  // namespace npu::compiler
