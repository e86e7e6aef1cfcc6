// Accuracy metrics on hand-computed values, and the report's two formats.
#include "compiler/accuracy/metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compiler/accuracy/accuracy.h"

namespace npu::compiler::accuracy {
namespace {

TEST(ErrorStats, CosineSnrAndMaxError) {
  ErrorStats s;
  const std::vector<float> ref = {3, 4}, test = {3, 3};
  s.Add(ref, test);
  EXPECT_DOUBLE_EQ(s.Cosine(), 21.0 / (5.0 * std::sqrt(18.0)));
  EXPECT_DOUBLE_EQ(s.SnrDb(), 10.0 * std::log10(25.0 / 1.0));
  EXPECT_DOUBLE_EQ(s.MaxAbsError(), 1.0);
  // A second, exact sample: the pooled cosine rises, the worst sample's stays.
  s.Add(ref, ref);
  EXPECT_GT(s.Cosine(), 21.0 / (5.0 * std::sqrt(18.0)));
  EXPECT_DOUBLE_EQ(s.MinSampleCosine(), 21.0 / (5.0 * std::sqrt(18.0)));
  EXPECT_EQ(s.samples(), 2);
  ErrorStats exact;
  exact.Add(ref, ref);
  EXPECT_TRUE(std::isinf(exact.SnrDb()));
  EXPECT_DOUBLE_EQ(Cosine(0, 0, 0), 1.0);
  EXPECT_DOUBLE_EQ(Cosine(0, 1, 0), 0.0);
}

TEST(TopK, LargestFirstTiesToTheLowerIndex) {
  const std::vector<float> v = {1, 5, 3, 5, -2};
  EXPECT_EQ(TopK(v, 3), (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(TopK(v, 9).size(), 5u);
  TopKAgreement top1(1, 0.5), top2(2);
  const std::vector<float> ref = {0, 2, 1}, close = {0, 1, 2}, same = {0, 3, 1};
  top1.Add(ref, close);  // float top-1 is class 1, int8's top-1 is class 2
  top1.Add(ref, same);
  top2.Add(ref, close);  // class 1 is in int8's top 2
  EXPECT_DOUBLE_EQ(top1.Rate(), 0.5);
  EXPECT_EQ(top1.near_ties(), 0);  // both lead by 1 >= 0.5
  TopKAgreement tie(1, 1.5);
  tie.Add(ref, close);  // leads by 1 < 1.5: a near tie, and a miss
  tie.Add(ref, same);
  EXPECT_EQ(tie.near_ties(), 2);
  EXPECT_DOUBLE_EQ(tie.ResolvableRate(), 1.0);  // no resolvable sample: vacuously 1
  EXPECT_DOUBLE_EQ(top2.Rate(), 1.0);
}

AccuracyReport SampleReport() {
  AccuracyReport r;
  r.model = "m";
  r.samples = 4;
  r.outputs.push_back({"logits", {0.999, 0.998, 30.5, 0.25}, 0.05f, 0.75, 1.0, 1, 0.8});
  r.layers.push_back({"a_very_long_tensor_name_from_an_onnx_exporter/Conv_output_0",
                      "global_average_pool",
                      {1, 112, 112, 1280},
                      {0.99, 0.98, 12.0, 1.5},
                      0.1f,
                      -3,
                      0.0125});
  r.layers.push_back({"exact", "flatten", {1, 1280}, {1.0, 1.0, INFINITY, 0.0}, 0.1f, 0, 0});
  return r;
}

TEST(AccuracyReport, TextFitsOneHundredColumnsAndMarksTheWorstLayer) {
  const std::string text = FormatAccuracyText(SampleReport());
  std::istringstream lines(text);
  std::string line, worst;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 100u) << line;
    if (line.size() > 2 && line.compare(line.size() - 2, 2, " <") == 0) worst = line;
  }
  EXPECT_NE(worst.find("~"), std::string::npos);  // the long name, cut, is the worst
  EXPECT_NE(text.find("75.0%"), std::string::npos);
  EXPECT_NE(text.find(" inf "), std::string::npos);
  EXPECT_NE(text.find("1 of 4 inputs are float near ties"), std::string::npos);
  EXPECT_NE(text.find("top-1 agreement on the other inputs: 80.0%"), std::string::npos);
}

TEST(AccuracyReport, JsonHasEveryFieldAndNullForInfinity) {
  const nlohmann::json j = nlohmann::json::parse(FormatAccuracyJson(SampleReport()));
  EXPECT_EQ(j["model"], "m");
  EXPECT_EQ(j["samples"], 4);
  EXPECT_DOUBLE_EQ(j["outputs"][0]["top1_agreement"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(j["outputs"][0]["snr_db"].get<double>(), 30.5);
  EXPECT_EQ(j["layers"][0]["shape"], nlohmann::json::array({1, 112, 112, 1280}));
  EXPECT_DOUBLE_EQ(j["layers"][0]["clipped_fraction"].get<double>(), 0.0125);
  EXPECT_TRUE(j["layers"][1]["snr_db"].is_null());
  EXPECT_EQ(j["outputs"][0]["near_ties"], 1);
}

}  // namespace
}  // namespace npu::compiler::accuracy
