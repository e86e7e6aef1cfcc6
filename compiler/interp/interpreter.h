// The float reference interpreter: runs any IR graph (either layout, before or after any pass) on
// the host. It is the ground truth for calibration, accuracy and pass soundness, so it follows
// docs/ir.md literally; speed comes from Eigen GEMMs in conv and matmul (single-threaded).
#pragma once

#include <functional>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::interp {

struct InterpretOptions {
  // Called with every node output as soon as it is computed (calibration statistics, debugging).
  std::function<void(const ir::Tensor&, const HostTensor&)> observe;
};

// Runs `graph` on `inputs` (one per graph input, in order, with the input's dtype and shape; the
// input tensor's layout tag is the graph's, whatever the HostTensor says) and returns the graph
// outputs in order. Shapes need not have been inferred. Fails, naming the node, on malformed
// graphs, bad inputs or unsupported ops.
StatusOr<std::vector<HostTensor>> Interpret(const ir::Graph& graph,
                                            const std::vector<HostTensor>& inputs,
                                            const InterpretOptions& options = {});

}  // namespace npu::compiler::interp
