// Matrix products of two activations: the quantised matmul -> MatMulLayer (one 1x1 convolution
// per output batch index, its weights LOADed from b). Batch dims broadcast as the IR allows: each
// output batch index reads the a and b matrices its position maps to. What the layer cannot run
// (K above kMaxActivationReduction, N above CONV's 16 bits) is Unimplemented: the control core
// runs it.
#include <fmt/format.h>

#include "compiler/lower/lower_ops.h"

namespace npu::compiler::lowering {
namespace {

Status Bad(const ir::Node& n, const std::string& what) {
  return InvalidArgument(fmt::format("node '{}' ({}): {}", n.name(), ir::OpName(n.kind()), what));
}

StatusOr<int64_t> Int(const ir::Node& n, const std::string& name) {
  const auto& values = n.attrs().values();
  auto it = values.find(name);
  const auto* v = it == values.end() ? nullptr : std::get_if<int64_t>(&it->second);
  if (v == nullptr) return Bad(n, fmt::format("attribute '{}' must be an int", name));
  return *v;
}

// For every position of the batch dims `out` (row-major), the index of the matrix of an operand
// whose batch dims are `in` (right-aligned, size-1 dims broadcast).
std::vector<uint32_t> BatchIndex(const ir::Shape& in, const ir::Shape& out) {
  const size_t lead = out.size() - in.size();
  std::vector<uint32_t> index;
  std::vector<int64_t> pos(out.size(), 0);
  for (int64_t i = 0; i < ir::NumElements(out); ++i) {
    int64_t at = 0;
    for (size_t d = lead; d < out.size(); ++d) {
      at = at * in[d - lead] + (in[d - lead] == 1 ? 0 : pos[d]);
    }
    index.push_back(static_cast<uint32_t>(at));
    for (size_t d = out.size(); d-- > 0;) {  // next position
      if (++pos[d] < out[d]) break;
      pos[d] = 0;
    }
  }
  return index;
}

ir::Shape BatchDims(const ir::Shape& s) { return ir::Shape(s.begin(), s.end() - 2); }

}  // namespace

Status LowerMatMul(const ir::Node& n, const Network& net, NetLayer& layer) {
  if (layer.inputs.size() != 2) return Unimplemented("a constant b (a gemm's weights) here");
  const ir::Shape &sa = n.input(0)->shape(), &sb = n.input(1)->shape(), &sy = n.output(0)->shape();
  if (sa.size() < 2 || sb.size() < 2 || sy.size() < 2) return Bad(n, "operands need two dims");
  const ActivationValue &a = net.value(layer.inputs[0]), &b = net.value(layer.inputs[1]);
  const ActivationValue& y = net.value(layer.output);
  MatMulLayer m;
  m.name = n.name();
  m.m = a.w, m.k = a.c, m.n = b.c;
  if (b.w != m.k || y.w != m.m || y.c != m.n) {
    return Bad(n, fmt::format("{} x {} -> {} is not a matrix product", ir::ShapeText(sa),
                              ir::ShapeText(sb), ir::ShapeText(sy)));
  }
  m.a_batch = BatchIndex(BatchDims(sa), BatchDims(sy));
  m.b_batch = BatchIndex(BatchDims(sb), BatchDims(sy));
  m.a_scale = a.scale, m.a_zero_point = a.zero_point;
  m.b_scale = b.scale, m.b_zero_point = b.zero_point;
  m.output_scale = y.scale, m.output_zero_point = y.zero_point;
  NPU_ASSIGN_OR_RETURN(const int64_t multiplier, Int(n, "multiplier"));
  NPU_ASSIGN_OR_RETURN(const int64_t shift, Int(n, "shift"));
  NPU_ASSIGN_OR_RETURN(const int64_t lo, Int(n, "clamp_min"));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, Int(n, "clamp_max"));
  m.multiplier = int32_t(multiplier), m.shift = int32_t(shift);
  m.clamp_min = int32_t(lo), m.clamp_max = int32_t(hi);
  const Status fits = CheckMatMulLayer(m);
  if (!fits.ok() && fits.kind() == ErrorKind::kUnimplemented) return fits;
  NPU_TRY(fits);
  layer.op = "matmul";
  layer.work = std::move(m);
  return Status::Ok();
}

}  // namespace npu::compiler::lowering
