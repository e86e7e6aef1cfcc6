// One table lookup layer, as the vector unit's LUT computes it: every int8 value x of an NHWC
// tensor becomes table[x + 128]. The table (a constant the layer carries, 256 entries) holds any
// unary function on the quantised values (lut_table.h builds one), so Sigmoid, HardSwish, GELU,
// ... cost one pass whatever their formula. With fp16_out the table's entries are FP16 and so is
// the output: the int8 -> FP16 conversion of a mixed-precision network (entry k the FP16 value
// of k - 128 at the input's scale and zero point, spec::DequantizeToFp16).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/fp16.h"
#include "hw/spec/isa.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct LutLayer {
  std::string name;
  std::string function;          // what the table computes, for reports ("sigmoid"); may be empty
  uint32_t h = 1, w = 1, c = 1;  // NHWC shape of the input and the output (batch 1)
  // spec::kLutEntries entries (entry k is the output for input k - 128) as bytes: one each, or
  // with fp16_out two (little-endian FP16).
  std::vector<int8_t> table;
  bool fp16_out = false;

  uint64_t Elements() const { return uint64_t{h} * w * c; }
  uint64_t OutputElementBytes() const { return spec::ElementBytes(fp16_out); }
  uint64_t TableBytes() const { return spec::kLutEntries * OutputElementBytes(); }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// A non-empty shape and a table of spec::kLutEntries values; the error names the layer.
Status CheckLutLayer(const LutLayer& layer);

// The same rule for a table carried by another layer (ConvLayer::table): empty or kLutEntries.
Status CheckOptionalTable(const std::vector<int8_t>& table);

}  // namespace npu::compiler
