// Grouped convolutions as one grouped CONV (issue 15's grouped co-design): a grouped convolution
// is lowered as one part per group (lower_ops.cc), each reading its own few channels (regnet's 8,
// resnext's 4) and filling as few of the array's columns, one small convolution after another.
// Packing the groups into one part makes it one layer with `groups` (ConvLayer::groups, CONV's
// `groups` field, docs/isa.md): the array feeds each column its own group's input values, so an
// oc tile of P whole groups fills P times the columns and takes ceil(K / R) folds where its
// groups took P ceil(K / R) (K a group's reduction, R the rows), reading its groups' input
// channels as one contiguous slice; and the tiler pipelines the layer's oc tiles like any
// other's, where separate parts each started and drained their own. Block-diagonal weights
// (zero between groups, an ordinary CONV) would take ceil(P K / R) folds: a grouped CONV is
// never slower and reads the same bank words.
#pragma once

#include "compiler/lower/network.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler {

// Whether the layer's parts are the groups of one grouped convolution that CONV's groups can
// run: not depthwise (whose datapath is its own), constant weights (int8, int4 or FP16).
bool PackableGroups(const NetLayer& layer);

// Packs every such layer's groups into one grouped part; returns how many layers it packed.
int PackGroups(Network& net);

}  // namespace npu::compiler
