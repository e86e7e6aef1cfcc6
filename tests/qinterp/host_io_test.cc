// Host-side conversions: ONNX QuantizeLinear rounding (half to even) and saturation, the NCHW to
// NHWC reorder of inputs and its inverse for outputs.
#include "compiler/qinterp/host_io.h"

#include <gtest/gtest.h>

#include "tests/qinterp/qgraph_builder.h"

namespace npu::compiler::qinterp {
namespace {

using interp::HostTensor;

TEST(HostIo, QuantizeRoundsHalfToEvenAndSaturates) {
  EXPECT_EQ(QuantizeValue(0.25f, 0.1f, 0), 2);    // 2.5 -> 2
  EXPECT_EQ(QuantizeValue(0.35f, 0.1f, 0), 4);    // 3.5 -> 4 (float 3.4999998 would be 3)
  EXPECT_EQ(QuantizeValue(-0.25f, 0.1f, 0), -2);  // -2.5 -> -2
  EXPECT_EQ(QuantizeValue(1.5f, 1.0f, 0), 2);
  EXPECT_EQ(QuantizeValue(2.5f, 1.0f, 0), 2);
  EXPECT_EQ(QuantizeValue(-3.5f, 1.0f, 10), 6);
  EXPECT_EQ(QuantizeValue(1000.0f, 1.0f, 0), 127);
  EXPECT_EQ(QuantizeValue(-1000.0f, 1.0f, 0), -128);
  EXPECT_EQ(QuantizeValue(0.0f, 1.0f, -128), -128);
  EXPECT_FLOAT_EQ(DequantizeValue(-128, 0.5f, -100), -14.0f);
}

TEST(HostIo, NchwInputIsReorderedForAnNhwcGraphInput) {
  qinterp_test::QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 1, 2, 3}, 1.0f, 0);  // NHWC: H 1, W 2, C 3
  // NCHW [1,3,1,2]: channel c, column w holds 10 * c + w.
  const HostTensor nchw = HostTensor::FromValues<float>({1, 3, 1, 2}, {0, 1, 10, 11, 20, 21});
  StatusOr<std::vector<int8_t>> q = QuantizeInput(*x, nchw);
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_EQ(*q, (std::vector<int8_t>{0, 10, 20, 1, 11, 21}));
  // And back: an NHWC output compared with an NCHW float output.
  const HostTensor out = DequantizeOutput(*x, *q);
  StatusOr<HostTensor> back = ToShape(out, {1, 3, 1, 2});
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::vector<float>(back->values<float>().begin(), back->values<float>().end()),
            (std::vector<float>{0, 1, 10, 11, 20, 21}));
}

TEST(HostIo, WrongInputShapeOrTypeIsAnError) {
  qinterp_test::QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 2, 2, 3}, 1.0f, 0);
  StatusOr<std::vector<int8_t>> q =
      QuantizeInput(*x, HostTensor::FromValues<float>({1, 12}, std::vector<float>(12, 0.0f)));
  EXPECT_EQ(q.status().message(),
            "input 'x': a [1,12] value given, the quantised graph takes [1,2,2,3] (or its NCHW "
            "order)");
  q = QuantizeInput(*x, HostTensor::FromValues<int32_t>({1, 2, 2, 3}, std::vector<int32_t>(12)));
  EXPECT_EQ(q.status().message(), "input 'x': i32 values given, float32 expected");
}

}  // namespace
}  // namespace npu::compiler::qinterp
