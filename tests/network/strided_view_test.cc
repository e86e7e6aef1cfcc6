// Strided views (compiler/lower/strided_view.h): what a value, a transpose, a slice and a
// reshape of them look like as an offset and strides, which reshapes keep a view and which would
// move bytes, and the matrices a product reads through them.
#include "compiler/lower/strided_view.h"

#include <gtest/gtest.h>

namespace npu::compiler {
namespace {

// A dense [16,1,96], a [1,10,12] in a buffer of 40-channel pixels at channel 8, a dense
// [16,4,8].
Network TwoValues() {
  Network net;
  net.buffers = {{16 * 96}, {10 * 40, false, false, 40}, {16 * 32}};
  ActivationValue dense{"x", {16, 1, 96}, 16, 1, 96, 1.0f, 0, 0};
  ActivationValue slice{"y", {1, 10, 12}, 1, 10, 12, 1.0f, 0, 1, 8};
  ActivationValue heads{"z", {16, 4, 8}, 16, 4, 8, 1.0f, 0, 2};
  net.values = {dense, slice, heads};
  return net;
}

using Strides = std::vector<int64_t>;

TEST(StridedView, ValuesKeepTheirPixelStrideAndChannelOffset) {
  const Network net = TwoValues();
  const StridedView x = ViewOf(net, 0, {16, 1, 96});
  EXPECT_EQ(x.strides, (Strides{96, 96, 1}));
  EXPECT_EQ(x.offset, 0);
  const StridedView y = ViewOf(net, 1, {1, 10, 12});
  EXPECT_EQ(y.strides, (Strides{400, 40, 1}));
  EXPECT_EQ(y.offset, 8);
}

// nn.MultiheadAttention's k: channels 32..63 of the projection, 4 heads of 8, then K^T.
TEST(StridedView, SliceReshapeAndTransposesOfAttention) {
  const Network net = TwoValues();
  const StridedView k = Sliced(ViewOf(net, 0, {16, 1, 96}), {0, 0, 32}, {1, 1, 1}, {16, 1, 32});
  EXPECT_EQ(k.offset, 32);
  const std::optional<StridedView> heads = Reshaped(k, {16, 4, 8});
  ASSERT_TRUE(heads);
  EXPECT_EQ(heads->strides, (Strides{96, 8, 1}));
  const StridedView kt = Transposed(*heads, {1, 2, 0});  // [4, 8, 16]
  EXPECT_EQ(kt.shape, (ir::Shape{4, 8, 16}));
  EXPECT_EQ(kt.strides, (Strides{8, 1, 96}));
  const ViewMatrices m = MatricesOf(kt, {4});
  EXPECT_EQ(m.places.offset, (std::vector<uint64_t>{32, 40, 48, 56}));
  EXPECT_EQ(m.places.row_stride, 1u);  // K's rows are one byte apart: b transposed
  EXPECT_EQ(m.col_stride, 96);
  // Writing [4,16,8] heads into a dense [16,4,8]: the transpose back, undone.
  const StridedView out = Untransposed(ViewOf(net, 2, {16, 4, 8}), {1, 0, 2});
  EXPECT_EQ(out.shape, (ir::Shape{4, 16, 8}));
  EXPECT_EQ(out.strides, (Strides{8, 32, 1}));
}

TEST(StridedView, ReshapesThatWouldMoveBytesAreRefused) {
  const Network net = TwoValues();
  const StridedView heads =
      Transposed(*Reshaped(ViewOf(net, 0, {16, 1, 96}), {16, 12, 8}), {1, 0, 2});  // [12, 16, 8]
  EXPECT_FALSE(Reshaped(heads, {12, 128}));  // merges tokens, 96 bytes apart, with 8-byte rows
  EXPECT_FALSE(Reshaped(heads, {192, 8}));
  const std::optional<StridedView> split = Reshaped(heads, {12, 4, 4, 8});
  ASSERT_TRUE(split);
  EXPECT_EQ(split->strides, (Strides{8, 384, 96, 1}));
  const std::optional<StridedView> ones = Reshaped(heads, {1, 12, 16, 1, 8});
  ASSERT_TRUE(ones);
  EXPECT_EQ(ones->strides[2], 96);
  EXPECT_EQ(ones->strides[4], 1);
}

TEST(StridedView, MatricesBroadcastOverTheBatch) {
  const Network net = TwoValues();
  const StridedView b = *Reshaped(ViewOf(net, 0, {16, 1, 96}), {1, 3, 16, 32});  // [.,3,.,.]
  const ViewMatrices m = MatricesOf(b, {2, 3});  // batch [2, 3]: the first dim broadcast
  EXPECT_EQ(m.places.offset, (std::vector<uint64_t>{0, 512, 1024, 0, 512, 1024}));
  EXPECT_EQ(m.places.row_stride, 32u);
  EXPECT_EQ(m.col_stride, 1);
}

}  // namespace
}  // namespace npu::compiler
