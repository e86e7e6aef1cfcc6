// What the graph rewrites fusing layers (row_strips.h, channel_groups.h) ask of a node: the
// images they split, the convolutions that produce them, and the lookup tables that travel with
// a convolution (lowering fuses a table into the convolution it follows).
#pragma once

#include <cstdint>

#include "compiler/ir/graph.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler {

// An int8 NHWC [1, H, W, C] activation.
bool IsImage(const ir::Tensor* t);

// An image's bytes (one a value).
int64_t ImageBytes(const ir::Tensor* t);

// What a fused group's intermediate may take: the rest is for the layers' other operands.
int64_t QuarterOfSram(const spec::NpuConfig& config);

// A convolution of an image.
bool IsImageConv(const ir::Node& n);

// A depthwise convolution of an image: one group a channel.
bool IsDepthwiseConv(const ir::Node& n);

// The convolution writing `t`, directly or through a lookup table that alone reads its output
// (the quantiser's SiLU or HardSwish, `*table`). Null if neither.
ir::Node* ConvWriting(const ir::Graph& g, const ir::Tensor* t, ir::Node** table = nullptr);

// The lookup table that alone reads a convolution's output, or null.
ir::Node* TableAfter(const ir::Graph& g, const ir::Node& conv);

}  // namespace npu::compiler
