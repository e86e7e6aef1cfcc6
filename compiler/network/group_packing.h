// Grouped convolutions packed side by side (issue 15's grouped co-design): a grouped
// convolution is lowered as one part per group (lower_ops.cc), each reading its own few channels
// (regnet's 8, resnext's 4) and filling as few of the array's columns, one small convolution
// after another. Packing P consecutive groups into one part makes it one CONV with P groups
// (CONV's `groups`, docs/isa.md): the array feeds each column its own group's input values, so
// the part fills P times the columns, reads its P groups' input channels as one contiguous
// slice, and takes ceil(K / R) folds of the array where its groups took P ceil(K / R) (K a
// group's reduction, R the rows). Block-diagonal weights (zero between groups, an ordinary CONV)
// would take ceil(P K / R): a grouped CONV is never slower, and reads the same bank words.
#pragma once

#include "compiler/lower/network.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler {

// The groups packed per part, at most as many as the array's columns hold (P x a group's output
// channels): the largest divisor of the group count, or that most if it makes fewer parts, the
// last part then sliding back to end at the last group (its first groups computed twice, the
// same bytes written twice); 1 (nothing to gain) if one group fills half the columns or more.
// Only int8 grouped convolutions (not depthwise ones, whose datapath is their own, nor FP16,
// which CONV's groups do not take).
uint32_t GroupsPerPart(const spec::NpuConfig& config, const NetLayer& layer);

// Packs every grouped convolution of the network so; returns how many layers it packed.
int PackGroups(const spec::NpuConfig& config, Network& net);

}  // namespace npu::compiler
