// A convolution whose kernel is too wide for one CONV (KernelBlocking: more than 15 taps) and
// strided along the width reads its input with the stride folded into the channels: a
// 1x16000x1 signal under a 1x80 kernel at stride 4 (an audio model's first layer) is a
// 1x4000x4 signal under a 1x20 kernel at stride 1. The bytes are the same (NHWC: pixel x's
// channels are consecutive, and so are s consecutive pixels), so only the layer changes: its
// input becomes a view of the same buffer, its weights are reordered, the MACs and the result are
// the same. Each kernel block then reduces over s times more taps a fold: cnn1d's 6 blocks of
// at most 15 taps (15 of 32 array rows) become 2 blocks of 60 and 20.
#pragma once

#include "compiler/lower/network.h"

namespace npu::compiler::lowering {

// Folds the stride of every one-part convolution into its input's channels where that cuts its
// kernel blocks: stride_w s > 1, no dilation or padding along the width, kernel_w and in_w
// multiples of s, integer weights, and an input dense in its buffer (after slices and
// concatenations are placed: the layouts are final). Returns how many it folded.
int FoldStrides(Network& net);

}  // namespace npu::compiler::lowering
