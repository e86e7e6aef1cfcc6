// Channel shuffle lowering: channel_shuffle {group g} over NHWC, y[p, j*g + i] = x[p, i*C/g + j],
// -> a copy layer with that group (copy_layer.h): per chunk of whole pixels, one LOAD scattering
// each group's runs of C/g bytes g apart (docs/isa.md "load / store") and one dense STORE. Like
// any copy it reads and writes channel slices, so its input may be a view and its output a slice
// of a concatenation. A shuffle that moves no channel (g = 1 or g = C) is a plain copy.
// Unimplemented (the control core runs it) where the copy cannot: a group above the LOAD's
// element stride field, or an output quantised unlike the input (a copy moves bytes).
#include <fmt/format.h>

#include "compiler/lower/lower_ops.h"

namespace npu::compiler::lowering {
namespace {

Status CheckShape(const ir::Node& n, const ActivationValue& x, const ActivationValue& y,
                  int64_t group) {
  if (n.input(0)->shape().size() == 4 && x.h == y.h && x.w == y.w && x.c == y.c && group >= 1 &&
      x.c % group == 0) {
    return Status::Ok();
  }
  return InvalidArgument(fmt::format(
      "node '{}' (channel_shuffle): {}x{}x{} -> {}x{}x{} with group {}: expected an NHWC tensor "
      "of the output's shape with channels a multiple of the group",
      n.name(), x.h, x.w, x.c, y.h, y.w, y.c, group));
}

}  // namespace

Status LowerChannelShuffle(const ir::Node& n, const Network& net, NetLayer& layer) {
  const ActivationValue &x = net.value(layer.inputs[0]), &y = net.value(layer.output);
  const int64_t group = n.attrs().GetInt("group", 1);
  NPU_TRY(CheckShape(n, x, y, group));
  if (x.scale != y.scale || x.zero_point != y.zero_point) {
    return Unimplemented("its output is quantised unlike its input, and a DMA copy moves bytes");
  }
  const bool moves = group > 1 && group < x.c;
  if (moves && group > spec::kMaxSramElemStride) {
    return Unimplemented(fmt::format("group {} is above the LOAD's largest SRAM element stride, {}",
                                     group, spec::kMaxSramElemStride));
  }
  layer.op = "channel_shuffle";
  layer.work = CopyLayer{n.name(), x.h, x.w, x.c, moves ? static_cast<uint32_t>(group) : 1};
  layer.note = moves ? fmt::format(
                           "{} groups of {} channels interleaved by DMA: LOADs scatter each "
                           "group's runs {} bytes apart in SRAM",
                           group, x.c / group, group)
                     : "a shuffle that moves no channel: a plain copy";
  return Status::Ok();
}

}  // namespace npu::compiler::lowering
