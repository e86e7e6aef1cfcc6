// ChannelShuffle {group}: the channel permutation of ShuffleNet's Reshape([N,g,C/g,H,W]) ->
// Transpose([0,2,1,3,4]) -> Reshape([N,C,H,W]), as one op that is not ONNX:
//   out[n, j*g + i, h, w] = in[n, i*(C/g) + j, h, w]   for i < g, j < C/g.
// Layout-aware: on NHWC it permutes the innermost (channel) axis of each pixel the same way.
#include <cstring>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {

StatusOr<Types> ChannelShuffleRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  NPU_TRY(ExpectRank(in, 0, 4));
  const int64_t group = node.attrs().GetInt("group", 0), c = ActDims(in[0]).c;
  if (group < 1 || c % group != 0) {
    return InvalidArgument(fmt::format("group {} does not divide {} channels", group, c));
  }
  return Types{{in[0].dtype, in[0].shape, ActLayout(in[0])}};
}

Status ChannelShuffleKernel(const ir::Node& node, Inputs in, Outputs out) {
  const Act4D a = ActDims(in[0]);
  const int64_t g = node.attrs().GetInt("group", 1), per = a.c / g;
  const size_t elem = ir::DTypeBytes(in[0].dtype);
  const int64_t plane = a.h * a.w;
  // Source channel of each output channel.
  std::vector<int64_t> src(a.c);
  for (int64_t i = 0; i < g; ++i) {
    for (int64_t j = 0; j < per; ++j) src[j * g + i] = i * per + j;
  }
  uint8_t* y = out[0].data.data();
  const uint8_t* x = in[0].data;
  for (int64_t n = 0; n < a.n; ++n) {
    for (int64_t c = 0; c < a.c; ++c) {
      if (a.nhwc) {
        for (int64_t p = 0; p < plane; ++p) {
          std::memcpy(y + ((n * plane + p) * a.c + c) * elem,
                      x + ((n * plane + p) * a.c + src[c]) * elem, elem);
        }
      } else {
        std::memcpy(y + (n * a.c + c) * plane * elem, x + (n * a.c + src[c]) * plane * elem,
                    plane * elem);
      }
    }
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
