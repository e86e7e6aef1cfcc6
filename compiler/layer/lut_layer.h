// One table lookup layer, as the vector unit's LUT computes it: every int8 value x of an NHWC
// tensor becomes table[x + 128]. The table (a constant the layer carries, 256 entries) holds any
// unary function on the quantised values (lut_table.h builds one), so Sigmoid, HardSwish, GELU,
// ... cost one pass whatever their formula.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/status.h"

namespace npu::compiler {

struct LutLayer {
  std::string name;
  std::string function;          // what the table computes, for reports ("sigmoid"); may be empty
  uint32_t h = 1, w = 1, c = 1;  // NHWC shape of the input and the output (batch 1)
  std::vector<int8_t> table;     // spec::kLutEntries: entry k is the output for input k - 128

  uint64_t Elements() const { return uint64_t{h} * w * c; }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// A non-empty shape and a table of spec::kLutEntries values; the error names the layer.
Status CheckLutLayer(const LutLayer& layer);

// The same rule for a table carried by another layer (ConvLayer::table): empty or kLutEntries.
Status CheckOptionalTable(const std::vector<int8_t>& table);

}  // namespace npu::compiler
