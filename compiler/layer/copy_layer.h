// One copy layer: the DMA engines move an NHWC int8 tensor from one place to another, through
// SRAM, without a compute unit. What makes it worth a layer is that either side may be a channel
// slice of a wider tensor (pixel stride above the copied channels): a slice that a reader cannot
// take as a view becomes dense, and an input a concatenation cannot have its producer write in
// place is copied into its slice.
#pragma once

#include <cstdint>
#include <string>

#include "hw/spec/status.h"

namespace npu::compiler {

struct CopyLayer {
  std::string name;
  uint32_t h = 1, w = 1, c = 1;  // NHWC shape of what is copied (batch 1)

  uint64_t Elements() const { return uint64_t{h} * w * c; }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// A non-empty shape; the error names the layer.
Status CheckCopyLayer(const CopyLayer& layer);

}  // namespace npu::compiler
