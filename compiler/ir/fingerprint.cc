#include "compiler/ir/fingerprint.h"

#include <string>

#include "compiler/ir/printer.h"
#include "hw/spec/binary.h"

namespace npu::compiler::ir {

uint64_t GraphFingerprint(const Graph& graph) {
  // The text names every constant in order; its bytes follow in the same order.
  std::string bytes = PrintGraph(graph);
  for (const Tensor* t : graph.tensors()) {
    if (t->is_constant()) bytes.append(t->bytes().begin(), t->bytes().end());
  }
  return spec::Crc64(bytes);
}

}  // namespace npu::compiler::ir
