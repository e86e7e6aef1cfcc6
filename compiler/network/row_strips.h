// Fused layer groups in row strips (issue 15): a convolution whose output is too large to stay in
// SRAM beside its neighbours, read only by the next layer, becomes K strips of output rows with
// that layer: each strip slices the rows of the input it needs (the consumer's halo included, and
// the producer's own if its window spans rows), runs the convolution on them and the consumer on
// the result, padded only at the image's borders. The consumer is a convolution (an inverted
// residual's expansion and its depthwise), a max pool (conv1 and its pool), or a residual join
// (a bottleneck's last 1x1 and the addition of the block's input), whose other operand is
// sliced to the strip's rows, or computed by the strip if a 1x1 convolution writes it for the
// join alone (RowStripGroup::branches). A lookup table between the two (the quantiser's SiLU or
// HardSwish after the producer) or after a convolution consumer, read only by the node before
// it, is applied by each strip to its own rows (and fused into the strip's convolution when
// lowered). The producer may also be a channel scaling read by a convolution consumer: an image
// times a per-channel scale the network computes (a squeeze-and-excitation's product and the
// block's projection), each strip scaling its rows by the whole scale. A global average pool
// may read the intermediate besides the consumer: each strip adds its new rows to the pool's
// int32 sums (a pool sum, POOL's sum mode), and the mean of the sums (a pool mean) replaces the
// pool, so the intermediate is never whole (lraspp's backbone output and its classifier).
// The strips' outputs are concatenated along the rows. The intermediate of one strip fits on
// chip, so it never goes through DRAM, and interleaving (layer_interleave.h) overlaps a strip's
// consumer with the next strip's producer. The halo rows are computed twice (by both strips they
// border). Pairs sharing a node (one's consumer the other's producer) may split as one chain:
// each strip works back from its rows of the last node, through every window's halo, to the rows
// of the chain's input it slices, so none of the chain's intermediates goes through DRAM. A
// chain's join may add an earlier node's output (an inverted residual whose block input is the
// layer before's output; a bottleneck's sum read by the next block's first convolution and its
// join): each strip slices its rows from its own. So a chain may run through residual blocks,
// none of their sums going through DRAM. Strips then keep their halo rows instead of computing
// them twice (StripOptions::keep_halos): each computes only rows no strip before did and reads
// the rest from the strips before, copied beside its own; a chain's blocks run a strip apart.
//
// Exact: every output value is computed from the same inputs with the same integer arithmetic,
// so the rewritten graph gives the original's bytes. The row slices are views and the row
// concatenation is placement (concat_placement.h): no copies.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/graph.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// A pair that can be split: its intermediate exceeds a quarter of the SRAM (or of what a
// concatenation leaves: StripOptions::beside_concats).
struct RowStripPair {
  std::string consumer;  // the consumer's node name (a convolution or a residual join)
  int64_t out_rows;      // the consumer's output rows
  int64_t default_rows;  // per strip, keeping a strip's intermediate within a quarter of the SRAM
                         // (a twelfth for a join: row_strips.cc, StripLimit)
  // Split unless told otherwise: the producer is pointwise, its strips compute at most 1.5x
  // its output rows (the consumer's halo rows twice; row_strips.cc, kMaxDefaultRecompute), and
  // the pair's constants are few enough to hold (ConstantsReloadedByEveryStrip: twice as many
  // if a global pool reads the intermediate too, which whole goes through DRAM for it). A
  // windowed producer (whose strips recompute its own halo too) is split only as a tuning says:
  // split by default as well, they made resnet50 0.3 % and resnext50_32x4d 0.8 % slower, and
  // googlenet, vgg11 and densenet121 slower than no strips at all (full-size exports, default
  // config).
  bool by_default = true;
  std::string producer;  // the producer's node name
  // On a residual path (from a layer reading a join's other operand to the join): split with
  // its chain even when its intermediate fits, since only a chain of all the path's pairs keeps
  // the residual off DRAM; one strip alone is not split.
  bool residual_path = false;
  // What a strip's intermediate may take: a quarter of the SRAM, or of what `image` leaves, or
  // with StripOptions::beside_concats of what `concat` leaves.
  int64_t limit = 0;
  // With StripOptions::beside_concats, the bytes of the concatenation of channels the producer
  // reads or the consumer writes a part of, if it fits the SRAM (its strips run beside it);
  // else 0.
  int64_t concat = 0;
  // The image a channel scaling producer reads whole beside the strips, if it may stay on chip
  // (at most three quarters of the SRAM) but strips of a quarter of the SRAM, twice over, would
  // not fit beside it and the consumer's output (row_strips.cc, ScaledImageBeside); else 0.
  int64_t image = 0;
};

// A chain of pairs split into strips: a fused layer group, which reports show as one.
struct RowStripGroup {
  std::vector<std::string> nodes;  // the chain's node names in order (a pair's producer, consumer)
  // Per residual join of the chain in order, the convolution writing the join's other operand,
  // if its output (read by the join alone) is too large for a quarter of the SRAM and its kernel
  // is one row (a bottleneck's downsampling 1x1): each strip computes its rows of it too, after
  // the chain's nodes.
  std::vector<std::string> branches;
  int64_t rows = 0;  // the last node's output rows per strip (the last strip may have fewer)
  // Per strip, in order, its nodes (one per node of the chain, then the branches').
  struct Layer {
    std::string name;
    int64_t rows = 0;             // its output rows
    int64_t recomputed_rows = 0;  // of them, those the strip before computes too (the halo)
    uint32_t node = 0;  // which of the chain's nodes (then its branches) it is a strip of
                        // (a layer normalisation after a node: that node's)
  };
  std::vector<std::vector<Layer>> strips;
  const std::string& producer() const { return nodes.front(); }
  const std::string& consumer() const { return nodes.back(); }
  // The nodes' names (then the branches') joined by '+'.
  std::string name() const;
  // Whether pair `consumer` is split by this group (a node after the first).
  bool Splits(const std::string& consumer) const;
};

// Which pairs SplitRowStrips splits beyond those it is told, and how pairs sharing a node split.
struct StripOptions {
  bool every_pair = false;  // every pair, not only those split by default
  // Pairs sharing a node (one's consumer the other's producer: inception's stem, 3x3
  // convolutions into a max pool; a bottleneck's three convolutions and its join) form a chain
  // split as one. Else the first pair of each such run splits, the one after it stays whole
  // (its producer is gone), and so on.
  bool chains = true;
  // A chain ending in a residual join splits the convolution writing the join's other operand
  // too, where RowStripGroup::branch says it may.
  bool branches = true;
  // A chain's strips keep the rows of each intermediate that the next strip's windows read
  // again (their halo), which it copies beside its own, instead of computing them twice.
  bool keep_halos = false;
  // With kept halos, the share of its rows a chain through residual blocks (its blocks a strip
  // apart: row_strips.cc, Skewed) takes per strip, rounded down (at least one): half, since about
  // twice as many strips' intermediates are alive; kAuto also tries two thirds.
  double skewed_rows = 0.5;
  // Only pairs whose intermediate and consumer's output cannot both stay in SRAM (beyond those
  // told): a pair whose two tensors fit side by side runs whole as well, and its strips would
  // only take SRAM from the tensors around it (densenet121's dense blocks, which only a few
  // pairs overflow: row_strips.cc, Overflows).
  bool overflowing_only = false;
  // Pairs reading or writing a concatenation of channels that fits the SRAM (DenseNet's dense
  // blocks, whose layers each read the block's concatenation so far and write a slice of it)
  // take a quarter of what it leaves for their strips' intermediates, not of the SRAM, and
  // split from intermediates larger than that; a chain of them takes as many rows per strip as
  // fit, twice over, in what the concatenation and the chain's constants leave (row_strips.cc,
  // RowsWithin). The concatenation then stays on chip beside the strips: densenet121's block-1
  // concatenation (56x56x256, 802 KB) in 1 MiB, which strips of a quarter of the SRAM sent to
  // DRAM and back (3.5 MB of traffic).
  bool beside_concats = false;
  // Of the pairs not split by default, only those whose intermediate exceeds this share of the
  // SRAM (with every_pair; 0: all of them): a chain then runs through the blocks whose tensors
  // could stay on chip beside little else and ends where the rest can stay on chip.
  double other_pairs_above = 0;
  // Unless told, a chain's strips take as many rows as keep what is alive of its intermediates at
  // its busiest node, twice over, within this share of the SRAM (row_strips.cc, PeakRowsWithin;
  // 0: the last pair's rows, fewer to fit each intermediate). A chain beside a scaled image
  // (RowStripPair::image) takes its last pair's rows still.
  double alive_share = 0;
};

// The pairs of `quantized` that can be split, with their default rows under `options`.
std::vector<RowStripPair> RowStripPairs(const spec::NpuConfig& config, const ir::Graph& quantized,
                                        const StripOptions& options = {});

// Splits every pair of RowStripPairs into strips of `strip_rows[consumer]` output rows where given
// (0, or at least the output's rows: kept whole; a tuning's band heights), else, if by_default
// or options.every_pair, of the default rows (as many as keep a strip's intermediate rows, halo
// included, within a quarter of the SRAM, at least one). A chain splits in strips of its last
// pair's rows, fewer unless told if an earlier intermediate's rows would not fit (a tuning's rows
// for a chain's other pairs only say to split them). Returns the chains (or pairs) it split.
StatusOr<std::vector<RowStripGroup>> SplitRowStrips(
    const spec::NpuConfig& config, ir::Graph& quantized,
    const std::map<std::string, int64_t>& strip_rows = {}, const StripOptions& options = {});

}  // namespace npu::compiler
