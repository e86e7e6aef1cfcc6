// A matrix product as a convolution, and its checks.
#include "compiler/layer/matmul_layer.h"

#include <fmt/format.h>

#include <cmath>

namespace npu::compiler {

ConvLayer MatMulLayer::AsConv() const {
  ConvLayer c;
  c.name = name;
  c.activation_weights = true;
  c.batches = batches();
  c.in_h = 1, c.in_w = m, c.in_c = k;
  c.out_c = n;
  c.bias.assign(n, 0);
  c.multiplier.assign(n, multiplier);
  c.shift.assign(n, shift);
  c.input_scale = a_scale, c.input_zero_point = a_zero_point;
  c.weight_zero_point = b_zero_point;
  c.output_scale = output_scale, c.output_zero_point = output_zero_point;
  c.clamp_min = clamp_min, c.clamp_max = clamp_max;
  return c;
}

Status CheckMatMulLayer(const MatMulLayer& l) {
  Status status = Status::Ok();
  if (l.m == 0 || l.k == 0 || l.n == 0 || l.a_batch.empty()) {
    status =
        InvalidArgument(fmt::format("{}x{} x {}x{}, {} batches: every dimension must be at least 1",
                                    l.m, l.k, l.k, l.n, l.a_batch.size()));
  } else if (l.b_batch.size() != l.a_batch.size()) {
    status = InvalidArgument(fmt::format("a_batch has {} entries, b_batch {}: one each per output",
                                         l.a_batch.size(), l.b_batch.size()));
  } else if (!(l.b_scale > 0.0f) || !std::isfinite(l.b_scale)) {
    status = InvalidArgument(fmt::format("b_scale = {}: must be positive and finite", l.b_scale));
  } else if (l.b_zero_point < -128 || l.b_zero_point > 127) {
    status = InvalidArgument(fmt::format("b_zero_point = {}: must be int8", l.b_zero_point));
  }
  if (!status.ok()) return status.WithContext(fmt::format("layer '{}'", l.DisplayName()));
  return CheckLayer(l.AsConv());  // shapes, K, quantisation: the convolution's rules
}

}  // namespace npu::compiler
