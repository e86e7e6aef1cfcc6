// Data-movement lowering: a quantised transpose -> GatherLayer (the DMA engines gather runs).
#include "compiler/layer/gather_layer.h"
#include "compiler/lower/lower_ops.h"

namespace npu::compiler::lowering {

Status LowerTranspose(const ir::Node& node, const Network& net, NetLayer& layer) {
  const ir::Shape& shape = node.input(0)->shape();
  const std::optional<GatherLayer> t = TransposeOf(
      node.name(), std::vector<uint64_t>(shape.begin(), shape.end()), node.attrs().GetInts("perm"));
  if (!t) {
    return Unimplemented(
        "the transpose moves the innermost axis: the DMA engines would move single bytes");
  }
  layer.op = "transpose";
  layer.work = *t;
  return Status::Ok();
}

}  // namespace npu::compiler::lowering
