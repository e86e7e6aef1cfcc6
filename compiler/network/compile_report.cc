// The compile report: what was decided per layer and for memory, and what is predicted.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "compiler/network/compile_model.h"

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
  return r;
}

}  // namespace npu::compiler
