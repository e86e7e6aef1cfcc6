// The compile report: what was decided per layer and for memory, and what is predicted.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compiler/network/compile_model.h"
#include "compiler/network/eviction.h"

namespace npu::compiler {
namespace {

std::string OnChipText(const ModelLayer& l, size_t inputs) {
  std::string text;
  for (size_t i = 0; i < inputs && i < 2; ++i) text += l.on_chip.input[i] ? "S" : "D";
  return text + (l.on_chip.output ? ">S" : ">D");
}

std::string Kib(uint64_t bytes) { return fmt::format("{:.1f} KiB", bytes / 1024.0); }

// The row-strip groups (their strips) and channel-group splits (their groups), or "none".
std::string FusedGroupsText(const CompiledModel& m) {
  std::vector<std::string> groups;
  for (const RowStripGroup& g : m.row_strip_groups) {
    groups.push_back(fmt::format("{} ({} row strips)", g.name(), g.strips.size()));
  }
  for (const ChannelGroupSplit& g : m.channel_groups) {
    groups.push_back(fmt::format("{} ({} channel groups)", g.name(), g.channels.size()));
  }
  return groups.empty() ? "none" : fmt::format("{}", fmt::join(groups, "; "));
}

// How many of the activations through DRAM the report names.
constexpr size_t kDramActivationsListed = 10;

// The activations the plan leaves in DRAM whose traffic goes beyond the least (which moves a
// graph input or output once), the most first (at most `most` of them): what takes a model's DRAM
// traffic beyond its least. A buffer's traffic is its layers' reads and writes of its values
// (OffChipTraffic: a part of a concatenation counts its own bytes), before LOADs read windows'
// halo rows again; an intermediate computed in place in an output's buffer counts there.
std::string DramActivationsText(const CompiledModel& m, size_t most) {
  std::vector<uint64_t> beyond = OffChipTraffic(m.network);
  std::vector<size_t> listed;
  uint64_t total = 0;
  for (size_t b = 0; b < m.memory.buffers.size(); ++b) {
    const NetBuffer& buffer = m.network.buffers[b];
    if (m.memory.buffers[b].on_chip) continue;
    const uint64_t least = (buffer.graph_input ? buffer.bytes : 0) +
                           (buffer.graph_output ? buffer.bytes : 0);
    beyond[b] -= std::min(beyond[b], least);
    if (beyond[b] == 0) continue;
    listed.push_back(b);
    total += beyond[b];
  }
  std::stable_sort(listed.begin(), listed.end(),
                   [&](size_t a, size_t b) { return beyond[a] > beyond[b]; });
  std::string text =
      fmt::format("activations through DRAM beyond the least: {} buffer(s), {} of traffic{}\n",
                  listed.size(), Kib(total), listed.empty() ? "" : "; the most:");
  if (!listed.empty()) text += fmt::format("  {:>12} {:>12}  {}\n", "traffic", "bytes", "buffer");
  for (size_t i = 0; i < std::min(most, listed.size()); ++i) {
    const BufferPlacement& b = m.memory.buffers[listed[i]];
    text += fmt::format("  {:>12} {:>12}  {}\n", Kib(beyond[listed[i]]), Kib(b.bytes), b.name);
  }
  return text;
}

}  // namespace

std::string CompileReport(const CompiledModel& m) {
  std::string r = fmt::format(
      "model '{}': {} layers, {} instructions, predicted {} cycles (roofline {}, {:.2f}x)\n\n",
      m.network.name, m.layers.size(), m.instructions.size(), m.cost.cycles, m.roofline_cycles,
      m.roofline_cycles ? double(m.cost.cycles) / m.roofline_cycles : 0.0);
  r += fmt::format("{:<28} {:<20} {:<30} {:>6} {:>10} {:>10} {:>10}  {}\n", "layer", "op", "shape",
                   "io", "predicted", "roofline", "SRAM", "tiling");
  for (const ModelLayer& l : m.layers) {
    r += fmt::format("{:<28} {:<20} {:<30} {:>6} {:>10} {:>10} {:>10}  {}\n", l.name, l.op, l.shape,
                     OnChipText(l, l.inputs), l.predicted_cycles, l.roofline_cycles,
                     Kib(l.sram_in_use), l.tiling);
    if (!l.note.empty()) {
      r += fmt::format("{:<28} {} {}\n", "", l.on_cpu ? "cpu:" : "decomposed:", l.note);
    }
  }
  const MemoryPlan& mem = m.memory;
  uint64_t on_chip = 0, off_chip = 0;
  for (const BufferPlacement& b : mem.buffers) (b.on_chip ? on_chip : off_chip) += b.bytes;
  uint64_t held = 0;
  for (const BufferPlacement& b : mem.held_constants) held += b.bytes;
  r += fmt::format(
      "\nio: operands in SRAM (S) or DRAM (D), inputs > output\n"
      "DRAM: instructions {}, constants {}, activation arena {} (liveness lower bound {}, "
      "{:.3f}x)\n"
      "SRAM: peak {} of the buffers and scratch; activations kept on chip {}, through DRAM {}; "
      "{} elementwise layers in place; cross-layer prefetch for {} of {} layers; {} buffer(s) sent "
      "back to DRAM to "
      "fit; {} node(s) of fused groups hold their constants across their strips ({})\n"
      "predicted DRAM traffic {} (minimum {}, {:.3f}x)\n"
      "fused layer groups: {}\n",
      Kib(mem.instruction_bytes), Kib(mem.constants_bytes), Kib(mem.arena_bytes),
      Kib(mem.arena_lower_bound),
      mem.arena_lower_bound ? double(mem.arena_bytes) / mem.arena_lower_bound : 1.0,
      Kib(mem.sram_peak), Kib(on_chip), Kib(off_chip), mem.elementwise_in_place,
      mem.prefetched, m.layers.size(), mem.evicted, mem.held_constants.size(), Kib(held),
      Kib(m.cost.dram_bytes()), Kib(m.min_dram_bytes),
      m.min_dram_bytes ? double(m.cost.dram_bytes()) / m.min_dram_bytes : 0.0,
      FusedGroupsText(m));
  return r + DramActivationsText(m, kDramActivationsListed);
}

}  // namespace npu::compiler
