// Row bands of a concatenation of channels (issue 15). A channel concatenation too large to stay
// in SRAM goes to DRAM whole, even where the SRAM could hold some of its rows: residency decides
// per buffer. When row strips read it (a squeeze-and-excitation's product strips reading the
// channel groups' depthwise outputs, which must all be done before the product starts, since its
// scale is their pool's), the rows the first strip reads become a concatenation of their own, of
// the same rows of every part, and the rest another: residency may keep the first on chip, and
// it frees its SRAM once the first strip has run. lraspp's blocks 14 and 15, whose 33x33x960
// depthwise outputs (1,045,440 bytes each; 1 MiB holds one with 3 KB to spare) went through DRAM
// whole, keep their first strips' 5 rows on chip: 2,765,131 -> 2,747,218 cycles, DRAM 15,758 ->
// 15,142 KiB (full-size export, default config, --no-tuning). A band per strip, each kept where
// it fits once everything else is placed, kept three of the seven on chip (14,035 KiB), but the
// vector unit's copies into the bands on chip took 2,789,196 cycles, which kAuto's trade of
// cycles for DRAM traffic (compile_model.h, Preferred) would not make.
//
// Exact: the bands hold the same bytes; only where they live changes. Each part's band is a row
// slice (a view), copied into its channel slice of the band (concat_placement.h) right after the
// layer writing the part, where the part's global pool reads it too, as the whole was.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// Splits every channel concatenation each of whose inputs is a view of a part read by it alone (an
// identity: channel_groups.h's pooled groups, whose concatenations exceed three quarters of the
// SRAM) and whose readers are all row slices, of consecutive rows from the first, into the rows
// the first reads and the rest, which stays in DRAM (kInDram, lower_graph.h): the whole went
// there, being too large to stay beside the groups, and residency, which keeps buffers greedily
// by the traffic they save, would keep a rest still over half the SRAM and send the groups'
// intermediates to DRAM instead. Returns the concatenations it split (names).
StatusOr<std::vector<std::string>> BandConcatsByRowReaders(ir::Graph& g);

}  // namespace npu::compiler
