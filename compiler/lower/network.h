// The network as the NPU runs it: a list of hardware layers (convolutions, pools, elementwise
// layers, table lookups, resizes, matrix products of two activations, layer normalisations, DMA
// copies and gathers)
// over
// int8 NHWC activations, in execution order. LowerGraph (lower_graph.h) builds it from the
// quantised graph IR; the network compiler (compiler/network) tiles, schedules and places it.
//
// Activations are values; a value lives in a buffer. Views (Flatten, Reshape, Identity) make a
// new value over the same buffer (the bytes are identical in NHWC order), and an in-place
// elementwise layer reuses an input's buffer for its output, so buffers, not values, are what
// memory planning places.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/layer/copy_layer.h"
#include "compiler/layer/eltwise_layer.h"
#include "compiler/layer/gather_layer.h"
#include "compiler/layer/lut_layer.h"
#include "compiler/layer/matmul_layer.h"
#include "compiler/layer/norm_layer.h"
#include "compiler/layer/pool_layer.h"
#include "compiler/layer/resize_layer.h"
#include "compiler/lower/cpu_layer.h"

namespace npu::compiler {

struct ActivationValue {
  std::string name;              // the IR tensor's name
  std::vector<uint32_t> shape;   // as in the IR (for the program's input/output descriptions)
  uint32_t h = 1, w = 1, c = 1;  // NHWC, batch 1 (a [1,K] vector is 1x1xK)
  float scale = 1.0f;
  int32_t zero_point = 0;
  int buffer = -1;  // index into Network::buffers
  // In a buffer of channel slices (a concatenation by placement): the value's first channel.
  uint32_t channel_offset = 0;
  // A contiguous part of its buffer (a slice along the outermost dim, an outer concatenation's
  // input): where it starts.
  uint64_t byte_offset = 0;
  // FP16 (an FP16 graph's f16 tensor): 2 bytes an element, no scale or zero point.
  bool fp16 = false;
  // A pool sum's int32 sums (ir::OpKind::kPoolSum): 4 bytes an element.
  bool int32 = false;
  uint32_t element_bytes() const { return int32 ? 4 : fp16 ? 2 : 1; }
  uint64_t bytes() const { return uint64_t{h} * w * c * element_bytes(); }
};

struct NetBuffer {
  uint64_t bytes = 0;
  bool graph_input = false;   // the host writes it before the run
  bool graph_output = false;  // the host reads it after the run
  // A buffer of channel slices (concat_placement.h): the channels of each of its pixels, which
  // its values (each a slice) are strided by. 0: every value in it is dense.
  uint32_t pixel_channels = 0;
  bool in_dram = false;  // never on chip: the rest of a concatenation's rows (concat_bands.h)
};

// One convolution of a layer: a grouped convolution is one part per group, each reading and
// writing its slice of the channels (one grouped part once packed: group_packing.h).
struct ConvPart {
  ConvLayer conv;
  uint32_t in_channel_offset = 0;
  uint32_t out_channel_offset = 0;
  uint64_t Macs() const { return conv.Macs(); }
};

struct NetLayer {
  std::string name;  // the IR node's name
  std::string op;    // "conv2d", "depthwise_conv2d", "fully_connected", "matmul", "max_pool", ...
  // A convolution's table (ConvLayer::table) is the same in every part.
  std::variant<std::vector<ConvPart>, PoolLayer, EltwiseLayer, LutLayer, ResizeLayer, MatMulLayer,
               CopyLayer, GatherLayer, NormLayer, CpuLayer>
      work;
  // Value ids: one, or a and b for an elementwise layer whose b is an activation (a constant b
  // is carried by the EltwiseLayer) and for a matrix product; a CPU layer: every activation it
  // reads.
  std::vector<int> inputs;
  int output = -1;   // value id
  std::string note;  // how a form the hardware lacks was decomposed, if it was
  // The fused layer group it is a strip of (RowStripGroup::name, compiler/network/row_strips.h),
  // and which strip; "" if none. Of its output rows, recomputed_rows are the strip before's too
  // (the halo both compute).
  std::string fused_group;
  uint32_t strip = 0;
  uint32_t recomputed_rows = 0;
  // Which node of the group's chain it is a strip of (RowStripGroup::nodes): the strips of one
  // node share its constants (on_chip_plan.h, held constants).
  uint32_t group_node = 0;
  // The channel-group split it is a group of (ChannelGroupSplit::name,
  // compiler/network/channel_groups.h), and which group; "" if none. Each group has constants
  // of its own (its output channels' weights).
  std::string channel_group;
  uint32_t channel_part = 0;
  // A copy concatenation placement added to move an input into its slice (concat_placement.h):
  // the group that wrote the input owns it (the group would otherwise have written the slice).
  bool placement_copy = false;

  const std::vector<ConvPart>* conv_parts() const {
    return std::get_if<std::vector<ConvPart>>(&work);
  }
  const MatMulLayer* matmul() const { return std::get_if<MatMulLayer>(&work); }
  const CpuLayer* cpu() const { return std::get_if<CpuLayer>(&work); }
  bool on_cpu() const { return cpu() != nullptr; }
  uint64_t Macs() const;
  uint64_t Int4Macs() const;  // of Macs(), those with int4 weights
  uint64_t Fp16Macs() const;  // of Macs(), those in FP16
  uint64_t ConstantBytes() const;  // weights, ACT records, tables, constant operands, taps
  std::string ShapeText(const std::vector<ActivationValue>& values) const;
};

struct Network {
  std::string name;
  std::vector<ActivationValue> values;
  std::vector<NetBuffer> buffers;
  std::vector<NetLayer> layers;      // in execution order
  std::vector<int> inputs, outputs;  // value ids, in graph order
  int concats_placed = 0;            // concatenations that are placement (concat_placement.h)

  const ActivationValue& value(int id) const { return values.at(id); }
  // The pixel stride of value `id` in its buffer: the buffer's channels, or the value's own.
  uint32_t PixelStride(int id) const {
    const uint32_t p = buffer_of(id).pixel_channels;
    return p != 0 ? p : values.at(id).c;
  }
  const NetBuffer& buffer_of(int value_id) const { return buffers.at(values.at(value_id).buffer); }
  // Whether values `a` and `b` share bytes: the same buffer, channels and rows.
  bool Overlap(int a, int b) const;
};

// The layers each buffer is live over: written first at `first` (-1 for a graph input, written
// by the host), read last at `last` (layers.size() for a graph output, read by the host).
struct Lifetime {
  int first = 0, last = 0;
  bool Overlaps(const Lifetime& o) const { return first <= o.last && o.first <= last; }
};
std::vector<Lifetime> BufferLifetimes(const Network& network);

// Makes elementwise layers (ELTWISE, LUT, LNORM) write their output over an input (a or b at
// the same bytes, read before written; of two, the one written latest, whose life the output's
// lengthens least) where nothing reads those bytes of the input after them, unless the input
// is a graph input or output: a buffer written only by such layers
// (one whole, or a fused group's strips, each its rows) merges into the input's buffer.
// Returns the number of layers made in place. Views keep sharing buffers; unused buffers stay
// (zero-length lifetimes).
int MakeElementwiseInPlace(Network& network);

// Makes an elementwise layer writing a buffer of its own write over an input that is a part of
// a larger buffer, one of `into` (per buffer), whole pixels, where nothing reads those bytes of
// it after the layer (a product strip over its rows of the image it scales, where the on-chip
// plan keeps that image): its buffer's values move into that part. Returns the number of
// layers made in place.
int MakeSlicesInPlace(Network& network, const std::vector<bool>& into);

}  // namespace npu::compiler
