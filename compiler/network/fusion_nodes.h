// What the graph rewrites fusing layers (row_strips.h, channel_groups.h) ask of a node: the
// images they split, the convolutions that produce them, and the lookup tables that travel with
// a convolution (lowering fuses a table into the convolution it follows).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

// What may travel with a convolution as its table: a lookup table (per element, so a channel
// group's slice of it too), or also a layer normalisation over an image's channels (per pixel:
// a strip of rows, not a slice of channels; convnext's after each depthwise convolution).
enum class Tables { kLookup, kPerPixel };

// Whether `n` is such a table of an image.
bool IsTable(const ir::Node& n, Tables tables);

// The convolution writing `t`, directly or through a table that alone reads its output
// (the quantiser's SiLU or HardSwish, `*table`). Null if neither.
ir::Node* ConvWriting(const ir::Graph& g, const ir::Tensor* t, ir::Node** table = nullptr,
                      Tables tables = Tables::kLookup);

// The table that alone reads a convolution's output, or null.
ir::Node* TableAfter(const ir::Graph& g, const ir::Node& conv, Tables tables = Tables::kLookup);

// Node `node`'s output, typed and quantised like `model`, of shape `shape`.
ir::Tensor* OutputLike(ir::Node* node, const ir::Tensor* model, ir::Shape shape);

// Replaces every use of `y` by `node`'s output, typed, quantised and shaped like `y` (OutputLike),
// erases `erased` in order (each one's outputs unused by then) and gives the output `y`'s name.
ir::Tensor* ReplaceByOutputOf(ir::Graph& g, ir::Tensor* y, ir::Node* node,
                              const std::vector<ir::Node*>& erased);

// Rows [r0, r1) of the image `x`: a view (lowering gives it the rows' part of x's buffer).
ir::Tensor* RowSlice(ir::Graph& g, ir::Tensor* x, int64_t r0, int64_t r1, const std::string& tag);

// The rows [r0, r1) a slice keeps of an image, if it keeps just rows (all of every other axis).
std::optional<std::pair<int64_t, int64_t>> RowsSliced(const ir::Node& n);

// Replaces every use of `y` by the concatenation of `parts` along `axis` (a node named after
// `named_after` and a tensor after `y`, both with `tag`), erases `erased` in order (each one's
// outputs unused by then) and gives the concatenation `y`'s name.
void ReplaceByConcat(ir::Graph& g, ir::Tensor* y, const std::vector<ir::Tensor*>& parts,
                     int64_t axis, const ir::Node& named_after, const std::string& tag,
                     const std::vector<ir::Node*>& erased);

}  // namespace npu::compiler
