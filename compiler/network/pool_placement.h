// Pools placed beside a convolution (issue 15). A pool runs on the vector unit, and the array has
// nothing to do meanwhile unless a convolution's instructions run among the pool's, which
// interleaving (layer_interleave.h) arranges only for consecutive layers. An inception block
// lists its pooling branch last, the pool followed by the 1x1 convolution reading it, so
// googlenet's 3x3 stride-1 max pools (28x28x192 at 9 taps an element: 42 k cycles on 32 lanes)
// ran alone. Moved to just before the block's largest convolution, which does not depend on it,
// the pool shares that convolution's time instead. Internal to compiler/network.
#pragma once

#include "compiler/lower/network.h"

namespace npu::compiler {

// Moves each pool, earlier or later, past the layers that neither read what it writes nor write
// what it reads or writes (by buffer: a concatenation's inputs are slices of one) within one run
// of NPU layers, to just before the one of them with the most MACs, if that has more than the
// layer now after the pool. Layers of row strips neither move nor are passed. Returns how many
// pools moved.
int MovePoolsBesideConvolutions(Network& net);

}  // namespace npu::compiler
