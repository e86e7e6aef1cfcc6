// BuildRunReport: totals from the counters, per-layer figures from the instruction records.
//
// Layers overlap in time (the next layer's loads run under this layer's compute), so a layer's
// cycles are defined as a partition of the run: from the completion of the previous layer's last
// instruction to the completion of its own. They sum to the run's cycles exactly.
#include "platform/report/run_report.h"

#include <algorithm>

#include "hw/spec/dram_device.h"
#include "hw/spec/layer_attribution.h"
#include "hw/spec/timing_model.h"

namespace npu::report {
namespace {

namespace regs = spec::regs;

double Gbps(uint64_t bytes, uint64_t cycles, uint32_t mhz) {
  return cycles == 0 ? 0 : double(bytes) / double(cycles) * mhz / 1e3;
}

// MAC slots (spec::MacSlots: int4 MACs take 1 / mac.int4_weight_rate of one, FP16 MACs
// mac.fp16_mac_cycles) per PE-cycle.
double Utilisation(uint64_t macs, uint64_t int4_macs, uint64_t fp16_macs, uint64_t cycles,
                   const spec::NpuConfig& c) {
  const double peak = double(cycles) * c.mac().rows() * c.mac().cols();
  return peak > 0 ? double(spec::MacSlots(c, macs, int4_macs, fp16_macs)) / peak : 0;
}

std::vector<QueueReport> Queues(const fw::Counters& c) {
  std::vector<QueueReport> queues;
  for (int q = 0; q < spec::kNumQueues; ++q) {
    auto get = [&](regs::QueueCounter k) { return c[regs::QueueCounterId(spec::Queue(q), k)]; };
    QueueReport r;
    r.name = std::string(spec::QueueName(spec::Queue(q)));
    r.busy_cycles = get(regs::kBusyCycles);
    r.instructions = get(regs::kQueueInstructions);
    r.stalls = {get(regs::kWaitInputCycles), get(regs::kWaitBufferCycles),
                get(regs::kBankConflictCycles), get(regs::kDramStallCycles),
                get(regs::kSramBoundCycles)};
    queues.push_back(r);
  }
  return queues;
}

// Adds what instruction `i` moved (hw/spec/layer_attribution.h's rule, as the compiler predicts
// it) and waited for to `layer`; `latest_end` becomes its end if later.
void AddInstruction(const spec::Program& program, const std::vector<hw::InsnRecord>& records,
                    uint32_t i, LayerReport& layer, spec::DramTraffic& traffic,
                    uint64_t& latest_end) {
  if (i < records.size()) {
    const hw::InsnRecord& r = records[i];
    layer.stalls.wait_input += r.wait_input;
    layer.stalls.wait_buffer += r.wait_buffer;
    layer.stalls.bank_conflict += r.bank_conflict;
    layer.stalls.dram_stall += r.dram_stall;
    layer.stalls.sram_bound += r.sram_bound;
    if (r.queue >= 0 && r.queue < spec::kNumQueues) layer.busy_cycles[r.queue] += r.end - r.start;
    latest_end = std::max(latest_end, r.end);
  }
  const size_t offset = size_t{i} * spec::kInsnBytes;
  if (offset + spec::kInsnBytes > program.instructions().size()) return;
  StatusOr<spec::Instruction> insn =
      spec::Decode(reinterpret_cast<const uint8_t*>(program.instructions().data()) + offset);
  if (insn.ok()) {
    spec::AddInstructionTraffic(*insn, traffic);
  } else {
    spec::AddFetchTraffic(traffic);
  }
}

// Layer `index` of the run, all but its cycles; `latest_end`: when its last instruction (or its
// CPU step) ended.
LayerReport Layer(const RunInputs& in, int index, uint64_t& latest_end) {
  const spec::LayerInfo& info = in.program->layers(index);
  const spec::NpuConfig& c = *in.config;
  LayerReport l;
  l.engine = info.engine().empty() ? "npu" : info.engine();
  l.name = info.name();
  l.op = info.op();
  l.shape = info.shape();
  l.tiling = info.tiling();
  l.first_instruction = info.first_instruction();
  l.instruction_count = info.instruction_count();
  l.instructions = spec::LayerInstructions(info);
  l.macs = info.macs();
  l.int4_macs = info.int4_macs();
  l.fp16_macs = info.fp16_macs();
  l.predicted_cycles = info.predicted_cycles();
  l.peak_sram_bytes = info.peak_sram_bytes();
  l.fused_group = info.fused_group();
  l.strip = info.strip();
  l.channel_group = info.channel_group();
  l.channel_part = info.channel_part();
  latest_end = 0;
  spec::DramTraffic traffic;
  for (uint32_t i : l.instructions) {
    AddInstruction(*in.program, *in.records, i, l, traffic, latest_end);
  }
  if (l.engine == "cpu" && info.step() < in.steps->size()) {
    latest_end = std::max(latest_end, (*in.steps)[info.step()].end_cycle);
    traffic = spec::CpuOpTraffic(in.program->steps(int(info.step())).cpu());
  }
  l.dram_read_bytes = traffic.read_bytes;
  l.dram_write_bytes = traffic.write_bytes;
  l.min_dram_bytes =
      spec::LeastConstantBytes(info.weight_bytes(), info.fused_group(), info.strip());
  if (index == 0) {
    for (const auto& t : in.program->inputs()) l.min_dram_bytes += t.size_bytes();
  }
  if (index + 1 == in.program->layers_size()) {
    for (const auto& t : in.program->outputs()) l.min_dram_bytes += t.size_bytes();
  }
  l.roofline_cycles = spec::LayerRooflineCycles(
      c, spec::NetworkMacSlots(c, l.macs, l.int4_macs, l.fp16_macs, info.recomputed_macs()),
      l.min_dram_bytes);
  return l;
}

void AddLayers(const RunInputs& in, RunReport& r) {
  std::vector<uint64_t> latest_ends(in.program->layers_size());
  for (int i = 0; i < in.program->layers_size(); ++i) {
    r.layers.push_back(Layer(in, i, latest_ends[i]));
    // Moved in among the instructions of the layer before it (compiler/network/layer_interleave.h).
    const LayerReport* before = i > 0 ? &r.layers[i - 1] : nullptr;
    LayerReport& l = r.layers.back();
    l.interleaved = before != nullptr && !before->instructions.empty() && !l.instructions.empty() &&
                    l.instructions.front() < before->instructions.back();
  }
  const std::vector<uint64_t> cycles = spec::PartitionCycles(latest_ends, r.cycles);
  for (size_t i = 0; i < r.layers.size(); ++i) r.layers[i].cycles = cycles[i];
  for (LayerReport& l : r.layers) {
    l.mac_utilisation = Utilisation(l.macs, l.int4_macs, l.fp16_macs, l.cycles, *in.config);
    r.int4_macs += l.int4_macs;
    r.fp16_macs += l.fp16_macs;
    l.achieved_gbps =
        Gbps(l.dram_read_bytes + l.dram_write_bytes, l.cycles, in.config->clock_mhz());
    r.roofline_cycles += l.roofline_cycles;
    r.min_dram_bytes += l.min_dram_bytes;
    r.predicted_cycles += l.predicted_cycles;
    r.peak_sram_bytes = std::max(r.peak_sram_bytes, l.peak_sram_bytes);
    (l.engine == "cpu" ? r.cpu_macs : r.npu_macs) += l.macs;
    l.energy = PriceEvents(*in.config, SumEvents(*in.records, l.instructions), l.cycles);
    Accumulate(l.energy, r.energy);
  }
}

// The group of `kind` named `name`, added after the others if new.
GroupReport& GroupNamed(RunReport& r, const std::string& kind, const std::string& name) {
  auto g = std::find_if(r.groups.begin(), r.groups.end(), [&](const GroupReport& g) {
    return g.kind == kind && g.name == name;
  });
  if (g == r.groups.end()) g = r.groups.insert(r.groups.end(), GroupReport{name, kind});
  return *g;
}

void Add(const LayerReport& l, GroupReport& g) {
  ++g.layers;
  g.cycles += l.cycles;
  g.predicted_cycles += l.predicted_cycles;
  g.roofline_cycles += l.roofline_cycles;
  g.dram_read_bytes += l.dram_read_bytes;
  g.dram_write_bytes += l.dram_write_bytes;
}

// The fused layer groups, from their layers (a layer of a strip split in channel groups counts
// in both).
void AddGroups(RunReport& r) {
  for (const LayerReport& l : r.layers) {
    if (!l.fused_group.empty()) {
      GroupReport& g = GroupNamed(r, "row_strips", l.fused_group);
      g.strips = std::max(g.strips, l.strip + 1);
      Add(l, g);
    }
    if (!l.channel_group.empty()) {
      GroupReport& g = GroupNamed(r, "channel_groups", l.channel_group);
      g.channel_groups = std::max(g.channel_groups, l.channel_part + 1);
      Add(l, g);
    }
  }
}

// Energy per MAC and per inference from the layers' sum; area from the config.
void AddEnergyAndArea(const spec::NpuConfig& c, RunReport& r) {
  r.pj_per_mac = r.macs ? r.energy.total_pj / double(r.macs) : 0;
  r.inferences_per_joule =
      r.energy.total_pj > 0 ? double(r.batch) / (r.energy.total_pj * 1e-12) : 0;
  r.area = spec::UnitAreas(c);
  r.area_mm2 = spec::TotalArea(r.area);
}

// Time per engine from the steps; the rest is the firmware between them.
void AddEngineShares(const RunInputs& in, RunReport& r) {
  for (int i = 0; i < in.program->steps_size() && i < int(in.steps->size()); ++i) {
    const uint64_t span = (*in.steps)[i].end_cycle - (*in.steps)[i].begin_cycle;
    if (in.program->steps(i).has_cpu()) {
      r.cpu_cycles += span;
      ++r.cpu_steps;
    } else {
      r.npu_cycles += span;
      ++r.npu_steps;
    }
  }
  r.other_cycles = r.cycles - std::min(r.cycles, r.npu_cycles + r.cpu_cycles);
}

void AddDram(const RunInputs& in, RunReport& r) {
  if (spec::IsIdealDram(*in.config) || in.dram == nullptr) return;
  const spec::DramStats& s = *in.dram;
  r.dram = DramReport{spec::DramStandard_Name(in.config->dram().standard()),
                      s.bursts,
                      s.row_hits,
                      s.row_misses,
                      s.row_conflicts,
                      s.refreshes,
                      s.RowHitRate(),
                      s.Efficiency()};
}

}  // namespace

RunReport BuildRunReport(const RunInputs& in) {
  const spec::NpuConfig& c = *in.config;
  const fw::Counters& k = *in.counters;
  RunReport r;
  r.model = in.model;
  r.config = c;
  r.mode = in.timing_only ? "timing-only" : "full";
  r.compile_seconds = in.compile_seconds;
  r.simulate_seconds = in.simulate_seconds;
  r.instructions = static_cast<uint32_t>(in.program->instructions().size() / spec::kInsnBytes);
  r.image_dram_bytes = in.program->dram_bytes();
  r.cycles = in.cycles;
  r.macs = k[regs::kMacs];
  r.batch = std::max<int64_t>(in.batch, 1);
  r.latency_us = double(r.cycles) / c.clock_mhz();
  r.inferences_per_second = r.latency_us > 0 ? 1e6 * double(r.batch) / r.latency_us : 0;
  r.dram_read_bytes = k[regs::kDramReadBytes];
  r.dram_write_bytes = k[regs::kDramWriteBytes];
  r.achieved_gbps = Gbps(r.dram_read_bytes + r.dram_write_bytes, r.cycles, c.clock_mhz());
  r.peak_gbps = spec::DramPeakBytesPerCycle(c) * c.clock_mhz() / 1e3;
  r.fetch_cycles = k[regs::kFetchCycles];
  r.dispatch_stall_cycles = k[regs::kDispatchStallCycles];
  r.queues = Queues(k);
  AddLayers(in, r);
  AddGroups(r);
  r.mac_utilisation = Utilisation(r.macs, r.int4_macs, r.fp16_macs, r.cycles, c);
  AddEngineShares(in, r);
  AddDram(in, r);
  AddEnergyAndArea(c, r);
  return r;
}

double DramRatio(const RunReport& r) {
  return r.min_dram_bytes
             ? double(r.dram_read_bytes + r.dram_write_bytes) / double(r.min_dram_bytes)
             : 0.0;
}

}  // namespace npu::report
