// Fused layer groups in channel groups (issue 15), where row strips do not pay: a convolution
// whose output is too large to stay in SRAM (over a quarter of it), read only by a depthwise
// convolution, splits with it into groups of channels. Group k's convolution computes its output
// channels from the whole input (which stays on chip: every group reads it), and its depthwise
// convolution filters just those channels (a depthwise channel reads only its own), so the
// intermediate never goes through DRAM and, unlike row strips, nothing is computed twice. Row
// strips serve most such pairs (an inverted residual's expansion and depthwise); the pairs they
// leave whole are those whose strips would compute the window's halo rows many times over
// (row_strips.cc, kMaxDefaultRecompute): lraspp's dilated 5x5 depthwise layers at 33x33, whose
// 33x33x960 expansions each made three trips through DRAM (written, read by the depthwise with
// its halos twice over). A lookup table after either convolution splits with it. The depthwise
// outputs are concatenated along the channels: placement (concat_placement.h) has each write its
// channel slice, no copy. A convolution alone whose large output a global pool reads splits too,
// each group pooled while on chip (SplitChannelGroups).
//
// Exact: every channel is computed from the same inputs with the same integer arithmetic, so the
// rewritten graph gives the original's bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// A convolution and its depthwise convolution split into channel groups.
struct ChannelGroupSplit {
  std::string conv, depthwise;    // the pair's node names
  std::vector<int64_t> channels;  // per group, in order, its channels
  std::vector<std::vector<std::string>> parts;  // per group, its nodes' names (tables too)
  std::string name() const {  // as reports show it
    return depthwise.empty() ? conv : conv + "+" + depthwise;
  }
};

// Which pairs SplitChannelGroups splits.
enum class GroupedPairs {
  kAll,  // every pair (after row strips: the pairs they split are gone)
  // Before row strips, only those whose output a global pool reads: a squeeze-and-excitation
  // needs it whole before anything reads it again, so strips gain nothing over groups, which
  // compute no halo twice (lraspp's undilated 33x33x672 pair: its strips' intermediates went
  // through DRAM beside the 731 KB output).
  kPooled,
  // The same but the convolutions alone, which row strips may take with the pool beside their
  // consumer, each strip adding its rows to the pool's sums (row_strips.h).
  kPooledPairs,
};

// Splits every such pair the graph has (of `which`) whose convolution's input takes at most a
// quarter of the SRAM, into as few groups as keep a group's intermediate within a quarter of the
// SRAM, each of a multiple of the array's columns channels (the last may have fewer). A pair
// whose groups would not fit stays whole. A pooled pair whose output takes more than three
// quarters of the SRAM (`sram_bytes`, the network's, where `config` sizes the groups for a
// smaller one; 0: config's) pools each group's channels on chip (channel_groups.cc,
// kPoolGroupsShare); one whose output takes more than half of it groups within an eighth
// (kLargePooledShare). So does a convolution alone (one group, not depthwise) whose output a
// global pool reads and takes more than that share, its input within a quarter (lraspp's backbone
// output, which its classifier pools and reads with a 1x1): its `depthwise` is empty.
StatusOr<std::vector<ChannelGroupSplit>> SplitChannelGroups(
    const spec::NpuConfig& config, ir::Graph& g, GroupedPairs which = GroupedPairs::kAll,
    uint64_t sram_bytes = 0);

}  // namespace npu::compiler
