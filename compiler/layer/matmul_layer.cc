// A matrix product as a convolution, and its checks.
#include "compiler/layer/matmul_layer.h"

#include <fmt/format.h>

#include <cmath>
#include <tuple>

namespace npu::compiler {

MatrixPlaces DenseMatrices(const std::vector<uint32_t>& index, uint32_t rows, uint32_t cols) {
  MatrixPlaces p;
  for (uint32_t i : index) p.offset.push_back(uint64_t{i} * rows * cols);
  p.row_stride = cols;
  return p;
}

ConvLayer MatMulLayer::AsConv() const {
  ConvLayer c;
  c.name = name;
  c.activation_weights = true;
  c.weights_nk = b_transposed;
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

namespace {

Status CheckPlaces(const MatMulLayer& l) {
  if (l.a.offset.size() != l.batches() || l.b.offset.size() != l.batches()) {
    return InvalidArgument(
        fmt::format("{} a and {} b offsets for {} output matrices: one each per output",
                    l.a.offset.size(), l.b.offset.size(), l.batches()));
  }
  const std::tuple<const char*, uint64_t, uint32_t> rows[] = {
      {"a", l.a.row_stride, l.k},
      {"b", l.b.row_stride, l.b_transposed ? l.k : l.n},
      {"y", l.y.row_stride, l.n}};
  for (const auto& [operand, stride, length] : rows) {
    if (stride < length) {
      return InvalidArgument(fmt::format(
          "{}'s rows are {} bytes apart: shorter than their {} elements", operand, stride, length));
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckMatMulLayer(const MatMulLayer& l) {
  Status status = Status::Ok();
  if (l.m == 0 || l.k == 0 || l.n == 0 || l.batches() == 0) {
    status =
        InvalidArgument(fmt::format("{}x{} x {}x{}, {} batches: every dimension must be at least 1",
                                    l.m, l.k, l.k, l.n, l.batches()));
  } else if (!(l.b_scale > 0.0f) || !std::isfinite(l.b_scale)) {
    status = InvalidArgument(fmt::format("b_scale = {}: must be positive and finite", l.b_scale));
  } else if (l.b_zero_point < -128 || l.b_zero_point > 127) {
    status = InvalidArgument(fmt::format("b_zero_point = {}: must be int8", l.b_zero_point));
  } else {
    status = CheckPlaces(l);
  }
  if (!status.ok()) return status.WithContext(fmt::format("layer '{}'", l.DisplayName()));
  return CheckLayer(l.AsConv());  // shapes, K, quantisation: the convolution's rules
}

}  // namespace npu::compiler
