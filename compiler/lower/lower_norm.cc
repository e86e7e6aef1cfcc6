// layer_normalization -> LNORM (NormLayer), on an NPU with a layer normaliser.
#include <fmt/format.h>

#include "compiler/layer/norm_layer.h"
#include "compiler/lower/lower_ops.h"

namespace npu::compiler::lowering {

Status LowerLayerNorm(const ir::Node& n, const Network& net, NetLayer& layer) {
  const ActivationValue &x = net.value(layer.inputs[0]), &y = net.value(layer.output);
  if (x.fp16 || net.PixelStride(layer.inputs[0]) != x.c) {
    return Unimplemented("LNORM reads dense int8 pixels");
  }
  NormLayer l;
  l.name = n.name();
  l.h = y.h, l.w = y.w, l.c = y.c;
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> m, IntsAttr(n, "multiplier", l.c));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> s, IntsAttr(n, "shift", l.c));
  const auto gamma = n.input(1)->data<int8_t>();
  const auto beta = n.input(2)->data<int32_t>();
  if (gamma.size() != l.c || beta.size() != l.c) {
    return BadNode(n, fmt::format("gamma and beta need {} values each", l.c));
  }
  for (uint32_t k = 0; k < l.c; ++k) {
    l.channels.push_back({gamma[k], beta[k], int32_t(m[k]), int32_t(s[k])});
  }
  NPU_ASSIGN_OR_RETURN(const int64_t eps, IntAttr(n, "eps_term", 0));
  if (eps < 0 || eps > int64_t{UINT32_MAX}) {
    return Unimplemented(fmt::format("eps_term {} is wider than LNORM's 32 bits", eps));
  }
  l.eps_term = uint32_t(eps);
  l.in_zero_point = x.zero_point, l.out_zero_point = y.zero_point;
  NPU_ASSIGN_OR_RETURN(const int64_t lo, IntAttr(n, "clamp_min"));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, IntAttr(n, "clamp_max"));
  l.clamp_min = int32_t(lo), l.clamp_max = int32_t(hi);
  const Status fits = CheckNormLayer(l);
  if (!fits.ok()) return Unimplemented(fits.message());
  layer.op = "layer_norm";
  layer.work = std::move(l);
  return Status::Ok();
}

}  // namespace npu::compiler::lowering
