// The state of one LowerGraph walk (internal to compiler/lower): the network being built, the
// value of every IR tensor lowered so far, and the slices, reshapes and transposes not run
// because their readers read through them. lower_graph.cc walks the graph (values, NPU and CPU
// layers, refusals); lower_views.cc defers those nodes and lowers the matrix products that read
// and write through them.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/lower/lower_graph.h"
#include "compiler/lower/lower_ops.h"
#include "compiler/lower/network.h"
#include "compiler/lower/strided_view.h"
#include "hw/spec/status.h"

namespace npu::compiler::lowering {

// An activation's (h, w, c): i8 with per-tensor quant; the last dim is the channels, the one
// before the width, the others together the height ([1,H,W,C] NHWC, [1,K] 1x1xK, [S,1,D] Sx1xD).
StatusOr<std::array<uint32_t, 3>> HwcOf(const ir::Tensor& t);

class Lowering {
 public:
  explicit Lowering(const LowerOptions& options) : options_(options) {}
  StatusOr<Network> Run(const ir::Graph& g);

 private:
  // A node not run: its output is `view` of a dense value; `node` is what runs if a reader
  // cannot read through it (Materialize): the slice, reshape or transpose, or a lookup table
  // moved before them (applied to the whole of the view's value already).
  struct Deferred {
    const ir::Node* node;
    StridedView view;
  };

  // lower_graph.cc
  Status Refusal(const ir::Graph& g) const;
  bool ForcedOnCpu(const ir::Node& n) const;
  StatusOr<int> NewValue(const ir::Tensor& t, int buffer);
  StatusOr<int> ValueOf(const ir::Tensor& t) const;
  Status Node(const ir::Node& n);
  // A transpose moving only dims of one: the same bytes in the same order.
  static bool MemoryOrderTranspose(const ir::Node& n);
  // A slice that is one contiguous range of its dense input (value `input`): its byte offset.
  std::optional<uint64_t> ContiguousSlice(const ir::Node& n, int input) const;
  Status SliceView(const ir::Node& n, int input, uint64_t byte_offset);
  Status Lower(const ir::Node& n);  // on the NPU if it can, else on the control core
  StatusOr<NetLayer> NpuLayer(const ir::Node& n);
  Status LowerNode(const ir::Node& n, NetLayer& layer, const EltwiseOperands& operands);
  void FuseTable(const ir::Node& lut, NetLayer& layer);
  Status CpuNode(const ir::Node& n, const std::string& reason);

  // lower_views.cc
  // Defers `n` if it is a slice, reshape or transpose a matrix product may read through, or a
  // lookup table after such nodes that only products read (it then runs before them, on their
  // source). True if so.
  StatusOr<bool> Defer(const ir::Node& n);
  StatusOr<bool> DeferLutBeforeViews(const ir::Node& lut, const Deferred& views);
  // The view `n`'s input is read through: a deferred one, or a dense value's own; nothing if
  // the input is neither.
  StatusOr<std::optional<StridedView>> InputView(const ir::Node& n, bool only_deferred);
  // The value of `t`, running what was deferred to make it if needed.
  StatusOr<int> Materialize(const ir::Tensor& t);
  // A product's operand read through its view, or materialised if the NPU cannot read it so.
  StatusOr<StridedView> OperandView(const ir::Tensor& t, bool is_b);
  // The transpose after `n` it may write through (its output's only reader), or null.
  const ir::Node* TransposeAfter(const ir::Node& n) const;
  StatusOr<NetLayer> MatMulNpuLayer(const ir::Node& n);

  const LowerOptions& options_;
  const ir::Graph* g_ = nullptr;
  Network net_;
  std::unordered_map<const ir::Tensor*, int> value_of_;
  std::unordered_map<const ir::Tensor*, Deferred> deferred_;
  std::vector<std::string> refused_;
  // Tables applied by the convolution before them, transposes a product writes through.
  std::unordered_set<const ir::Node*> fused_;
};

}  // namespace npu::compiler::lowering
