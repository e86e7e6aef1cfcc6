// The MAC array's operand feeder: the SRAM it reads for each fold of a CONV, as the array consumes
// the operands rather than in one bulk read per instruction. One rule, two drivers: hw/mac_array
// books it on the SRAM's banks (sram_bank_timer.h, BookStream), the compiler's replay books the
// same, and ConvComputeCycles (timing_model.h) lets no fold finish before its reads could.
//
// Per fold, the feeder reads the stationary operand once and the streamed operand vector by
// vector, with no reuse between vectors (no line buffer: each weight-stationary vector is an
// im2col row read afresh). A contiguous segment of L bytes costs ceil(L / bank_width) bank words
// (the feeder's aligner is not modelled: a segment straddling a word boundary costs no extra
// word). Padding taps are read like the rest, as ConvMacs counts them. The input region is dense
// HWC; weights are [out_c][K] (or [K][out_c] with weights_kn), K = kernel_h*kernel_w*in_c
// (kernel_h*kernel_w for depthwise, whose columns each take their own input channel;
// kernel_h*kernel_w*in_c/G for G groups, whose columns each take their own group's channels).
//
// Weight-stationary fold (K rows k0..k0+r, output channels n0..n0+c), M = out_h*out_w vectors:
//   stationary: the r x c weight block; streamed: M vectors of the r im2col bytes of one pixel
//   (depthwise: r taps x c channels). Segments of a vector break where the memory jumps: at each
//   kernel row (kernel_w*in_c bytes when dilation_w is 1, else at each tap's in_c bytes).
//   Grouped (G groups of cg input and ng output channels; depthwise is cg = ng = 1): r values
//   for each of the g = ceil(c / ng) groups the column tile spans, r x g bytes, read per tap the
//   K-chunk touches as one segment of the g groups' g x cg channels.
// Output-stationary fold (pixels m0..m0+r, channels n0..n0+c), K steps:
//   each of the r rows reads its pixel's whole window (depthwise: c channels per tap; grouped:
//   K values for each of the g groups, read per tap as the groups' channels), each of the
//   c columns its output channel's K weights.
// An fp16 CONV's elements are 2 bytes: every segment and block above is twice as many bytes.
// docs/timing-fidelity.md ("Operand streaming") has the worked numbers.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::spec {

struct FoldReads {
  uint64_t bytes = 0;  // operand bytes the array consumes
  uint64_t words = 0;  // bank words the feeder reads for them
  bool operator==(const FoldReads&) const = default;
};

// Folds that read and stream alike: `count` of them read `reads` and stream `stream` (T,
// timing_model.h's FoldStream) each. `last` marks the class of one fold that is the CONV's last
// (it has no successor to overlap).
struct FoldClass {
  uint64_t count = 0;
  FoldReads reads;
  bool last = false;
  uint64_t stream = 0;
};

// Calls `visit` for each class of the CONV's folds, grouped by what they read; the counts add up
// to ConvFolds. Weight-stationary folds of consecutive K-chunks that read and stream alike are
// one class,
// so a CONV has a handful of classes unless its kernel rows break the chunks unevenly (at most
// 2 * ceil(K / rows) + 1); output-stationary at most 4. Allocates nothing.
void ForEachFoldClass(const NpuConfig& c, const ConvArgs& conv,
                      const std::function<void(const FoldClass&)>& visit);
// The same, as a list.
std::vector<FoldClass> ConvFoldClasses(const NpuConfig& c, const ConvArgs& conv);

// What all the CONV's folds read together.
FoldReads ConvStreamReads(const NpuConfig& c, const ConvArgs& conv);

// The fewest cycles the banks need for `reads`: ceil(words / banks).
uint64_t FoldSramCycles(const NpuConfig& c, const FoldReads& reads);

}  // namespace npu::spec
