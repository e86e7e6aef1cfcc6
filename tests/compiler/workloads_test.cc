// The built-in workloads: names, shapes, determinism and data that exercises the datapath.
#include "workloads/single_layer.h"

#include <set>

#include <gtest/gtest.h>

#include "compiler/reference/reference_conv.h"
#include "workloads/synthetic_conv.h"

namespace npu::workloads {
namespace {

TEST(Workloads, NamesAndUnknownName) {
  EXPECT_EQ(SingleLayerWorkloadNames(), (std::vector<std::string>{"conv3x3", "fc"}));
  const StatusOr<Workload> missing = MakeSingleLayerWorkload("resnet");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.status().message().find("known: conv3x3, fc"), std::string::npos);
}

TEST(Workloads, ShapesAreAsDescribed) {
  const Workload conv = *MakeSingleLayerWorkload("conv3x3");
  EXPECT_EQ(conv.layer.OutH(), 56u);
  EXPECT_EQ(conv.layer.out_c, 64u);
  EXPECT_EQ(conv.layer.kernel_h, 3u);
  EXPECT_EQ(conv.layer.clamp_min, conv.layer.output_zero_point);  // ReLU
  EXPECT_NE(conv.layer.input_zero_point, 0);
  EXPECT_EQ(conv.input.size(), 56u * 56 * 64);
  const Workload fc = *MakeSingleLayerWorkload("fc");
  EXPECT_TRUE(fc.layer.fully_connected);
  EXPECT_EQ(fc.layer.in_c, 512u);
  EXPECT_EQ(fc.layer.out_c, 1000u);
  EXPECT_EQ(fc.layer.clamp_min, -128);
  EXPECT_NE(fc.layer.input_zero_point, 0);
}

TEST(Workloads, AreDeterministicAndValid) {
  for (const std::string& name : SingleLayerWorkloadNames()) {
    const Workload a = *MakeSingleLayerWorkload(name), b = *MakeSingleLayerWorkload(name);
    EXPECT_TRUE(compiler::CheckLayer(a.layer).ok());
    EXPECT_EQ(a.layer.weights, b.layer.weights);
    EXPECT_EQ(a.layer.multiplier, b.layer.multiplier);
    EXPECT_EQ(a.input, b.input);
    for (int32_t m : a.layer.multiplier) EXPECT_GE(m, 1 << 30);
    EXPECT_GT(std::set<int32_t>(a.layer.multiplier.begin(), a.layer.multiplier.end()).size(), 1u);
  }
}

TEST(Workloads, OutputsSpreadOverTheInt8Range) {
  for (const std::string& name : SingleLayerWorkloadNames()) {
    const Workload w = *MakeSingleLayerWorkload(name);
    const std::vector<int8_t> out = *compiler::ReferenceConv(w.layer, w.input);
    const std::set<int8_t> distinct(out.begin(), out.end());
    EXPECT_GT(distinct.size(), 60u) << name;
    const size_t clamped = std::count(out.begin(), out.end(), int8_t{127});
    EXPECT_LT(clamped, out.size() / 20) << name;
  }
}

TEST(SyntheticConv, MalformedShapeIsAnError) {
  SyntheticConvSpec s;
  s.kernel_h = 3;  // 3 rows of kernel over a 1-row input without padding
  EXPECT_FALSE(MakeSyntheticConv(s).ok());
}

}  // namespace
}  // namespace npu::workloads
