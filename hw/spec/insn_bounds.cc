// Instruction bounds: the units' field checks, then each footprint against its memory.
#include "hw/spec/insn_bounds.h"

#include <fmt/format.h>

#include "hw/spec/footprint.h"
#include "hw/spec/layer_norm.h"
#include "hw/spec/resize.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

namespace npu::spec {
namespace {

// The check the instruction's unit applies to its fields before touching memory ("" for DMA,
// whose only constraints are its addresses).
std::string UnitFieldCheck(const Instruction& insn) {
  if (const auto* c = std::get_if<ConvArgs>(&insn.args)) return CheckConv(*c);
  if (const auto* a = std::get_if<ActArgs>(&insn.args)) return CheckAct(*a);
  if (const auto* p = std::get_if<PoolArgs>(&insn.args)) return CheckPool(*p);
  if (const auto* e = std::get_if<EltwiseArgs>(&insn.args)) return CheckEltwise(*e);
  if (const auto* l = std::get_if<LutArgs>(&insn.args)) return CheckLut(*l);
  if (const auto* r = std::get_if<ResizeArgs>(&insn.args)) return CheckResize(*r);
  if (const auto* d = std::get_if<DwConvArgs>(&insn.args)) return CheckDwConv(*d);
  if (const auto* n = std::get_if<LnormArgs>(&insn.args)) return CheckLnorm(*n);
  return "";
}

std::string_view SpaceName(Space space) {
  switch (space) {
    case Space::kDram:
      return "the image's DRAM";
    case Space::kSram:
      return "SRAM";
    case Space::kAcc:
      return "the accumulator buffer";
  }
  return "?";
}

uint64_t Limit(Space space, const MemoryBounds& bounds) {
  switch (space) {
    case Space::kDram:
      return bounds.dram_bytes;
    case Space::kSram:
      return bounds.sram_bytes;
    case Space::kAcc:
      return bounds.acc_entries;
  }
  return 0;
}

}  // namespace

std::string CheckInstructionBounds(const Instruction& insn, const MemoryBounds& bounds) {
  if (const std::string problem = UnitFieldCheck(insn); !problem.empty()) return problem;
  if (const auto* d = std::get_if<DmaArgs>(&insn.args); d && DmaBytes(*d) > bounds.sram_bytes) {
    return fmt::format(
        "moves {} bytes ({} x {} runs of {}), more than the SRAM's {}: its SRAM "
        "side would be written or read over again within one descriptor",
        DmaBytes(*d), d->n2, d->n1, d->run_bytes, bounds.sram_bytes);
  }
  for (const Footprint& f : Footprints(insn)) {
    const uint64_t limit = Limit(f.space, bounds);
    if (f.end <= limit) continue;
    const char* unit = f.space == Space::kAcc ? "entries" : "bytes";
    return fmt::format("{} {:#x} spans [{:#x}, {:#x}), past the end of {} ({} {})", f.field,
                       f.begin, f.begin, f.end, SpaceName(f.space), limit, unit);
  }
  return "";
}

}  // namespace npu::spec
