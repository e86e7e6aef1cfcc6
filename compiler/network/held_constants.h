// Held constants (ConvTiling::held), a step of the on-chip plan (on_chip_plan.h): the strips of
// one node of a fused layer group (row_strips.h) are layers with the same weights and ACT
// records. Without holding, every strip LOADs them again (wide_resnet50_2's strips reloaded
// 4.1 MB); held, the first strip LOADs every tile once into a region of SRAM that stays until the
// node's last strip, and the later strips read them there.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/lower/network.h"
#include "compiler/network/layer_schedule.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler {

struct HeldRegion {
  int first = 0, last = 0;  // the node's first and last strip (layer indices)
  uint64_t bytes = 0;       // its weights and records, as its held tilings lay them out
};

struct Holding {
  std::vector<LayerSchedule> schedules;  // per layer: the held tilings replace the strips'
  std::vector<HeldRegion> regions;
  std::vector<int> region_of;  // per layer: its region, or -1
};

// Holds a node's constants if its strips are single convolutions (weights of their own, not an
// activation's) that each have a tiling with weights and records resident in the first strip's
// output- and input-channel tiles within the scratch their own tiling took, and if at every layer
// the region is alive the SRAM still holds the on-chip buffers (`live`, per layer), that layer's
// scratch and every region alive there. Nodes in order of the bytes they save (the weights and
// records times the strips after the first), the regions in that order. The other layers'
// schedules stay: their scratch fits beside the regions.
Holding HoldConstants(const spec::NpuConfig& config, const Network& net,
                      const std::vector<bool>& on_chip, std::vector<LayerSchedule> schedules,
                      const std::vector<uint64_t>& live);

// Gives up the region saving the least (the last): its strips take their `plain` schedules.
void DropLastRegion(Holding& holding, const std::vector<LayerSchedule>& plain);

}  // namespace npu::compiler
