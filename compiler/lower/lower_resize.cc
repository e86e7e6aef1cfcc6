// Resize lowering: the quantised resize (NHWC, per output row and column its taps `h_taps`,
// `w_taps`: triples i0, i1, weight of i1 in 1/1024) -> one RESIZE layer (ResizeLayer), bilinear
// or nearest alike. The input and the output share the input's quantisation (the quantiser keeps
// it so; the checker refused anything else). What RESIZE cannot encode (a dimension over 65535)
// is Unimplemented: the control core runs it.
#include <fmt/format.h>

#include "compiler/lower/lower_ops.h"

namespace npu::compiler::lowering {
namespace {

// Attribute `name` as out taps.
StatusOr<std::vector<spec::ResizeTap>> Taps(const ir::Node& n, const std::string& name,
                                            uint32_t out) {
  const std::vector<int64_t> flat = n.attrs().GetInts(name);
  if (flat.size() != 3 * uint64_t{out}) {
    return BadNode(n, fmt::format("attribute '{}' must hold 3 ints per output position ({})", name,
                                  3 * uint64_t{out}));
  }
  std::vector<spec::ResizeTap> taps;
  for (uint32_t i = 0; i < out; ++i) {
    const int64_t* t = &flat[3 * i];
    if (t[0] < 0 || t[1] < 0 || t[2] < 0 || t[0] > UINT32_MAX || t[1] > UINT32_MAX ||
        t[2] > spec::kResizeWeightOne) {
      return BadNode(n,
                     fmt::format("{}[{}] = ({}, {}, {}) out of range", name, i, t[0], t[1], t[2]));
    }
    taps.push_back({uint32_t(t[0]), uint32_t(t[1]), uint32_t(t[2])});
  }
  return taps;
}

}  // namespace

Status LowerResize(const ir::Node& n, const Network& net, NetLayer& layer) {
  const ActivationValue &x = net.value(layer.inputs[0]), &y = net.value(layer.output);
  if (x.c != y.c || x.zero_point != y.zero_point) {
    return BadNode(n, "resizes the height and width only, in the input's quantisation");
  }
  ResizeLayer r;
  r.name = n.name();
  r.in_h = x.h, r.in_w = x.w, r.channels = x.c;
  r.out_h = y.h, r.out_w = y.w;
  r.zero_point = x.zero_point;
  NPU_ASSIGN_OR_RETURN(r.row_taps, Taps(n, "h_taps", r.out_h));
  NPU_ASSIGN_OR_RETURN(r.col_taps, Taps(n, "w_taps", r.out_w));
  NPU_TRY(CheckResizeLayer(r));
  layer.op = "resize";
  layer.work = std::move(r);
  return Status::Ok();
}

}  // namespace npu::compiler::lowering
