// A run, as reports present it: per layer and in total, every figure measured on the platform
// except those named `predicted_*`. Built once (BuildRunReport) and written as a terminal table,
// JSON (docs/report.md) or CSV, so all three always agree.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "firmware/driver.h"
#include "hw/common/unit_context.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/dram_channel.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "platform/report/energy_report.h"
#include "platform/report/provenance.h"
#include "platform/report/tuning_summary.h"

namespace npu::report {

struct Stalls {
  uint64_t wait_input = 0;     // token waits for data from an upstream queue
  uint64_t wait_buffer = 0;    // token waits for a buffer a downstream queue frees
  uint64_t bank_conflict = 0;  // SRAM banks busy with other accesses
  uint64_t dram_stall = 0;     // DRAM bandwidth taken by other transfers
  uint64_t sram_bound = 0;     // CONV folds outlasting the array for their SRAM operand reads
};

struct QueueReport {
  std::string name;
  uint64_t busy_cycles = 0;
  uint64_t instructions = 0;
  Stalls stalls;
};

struct LayerReport {
  std::string name, op, shape, tiling;
  std::string engine = "npu";  // or "cpu": run by the firmware on the control core
  uint32_t first_instruction = 0, instruction_count = 0;
  std::vector<uint32_t> instructions;  // spec::LayerInstructions
  bool interleaved = false;  // its first instruction comes before the previous layer's last
  std::string fused_group;   // the row-strip group it is a strip of ("" if none), and which
  uint32_t strip = 0;
  std::string channel_group;  // the channel-group split it is a group of ("" if none), and which
  uint32_t channel_part = 0;
  uint64_t macs = 0;
  uint64_t int4_macs = 0;  // of macs, with int4 weights (W4A8)
  uint64_t fp16_macs = 0;  // of macs, in FP16
  uint64_t cycles = 0;     // from the previous layer's completion to this one's
  // Per queue (spec::Queue), its instructions' executing cycles, [start, end) summed: what the
  // layer cost each unit wherever those cycles fell. Layers overlap, so `cycles` (a partition of
  // the run) can give an interleaved layer others' time; busy cycles do not. A DMA queue's sum
  // counts its channels' descriptors one by one (they overlap).
  std::array<uint64_t, spec::kNumQueues> busy_cycles{};
  uint64_t predicted_cycles = 0;
  double mac_utilisation = 0;  // spec::MacSlots / (cycles * rows * cols)
  Stalls stalls;               // summed over the layer's instructions (they overlap)
  uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  double achieved_gbps = 0;
  uint64_t peak_sram_bytes = 0;
  uint64_t roofline_cycles = 0;  // max(macs / (rows*cols), min_dram_bytes / bandwidth)
  // The least DRAM traffic: the layer's constants, plus the network input for the first layer and
  // the output for the last (intermediate activations could stay on chip).
  uint64_t min_dram_bytes = 0;
  EnergyFigures energy;          // its instructions' events, plus leakage over its cycles
};

// The DRAM device's view of the run (dram.standard other than IDEAL), over the whole simulation:
// the firmware's image loading and CPU ops as well as the NPU's traffic.
struct DramReport {
  std::string standard;
  uint64_t bursts = 0, row_hits = 0, row_misses = 0, row_conflicts = 0, refreshes = 0;
  double row_hit_rate = 0;  // row_hits / bursts
  double efficiency = 0;    // data cycles / busy cycles, summed over channels
};

struct CheckReport {
  // "pass", "fail", "skipped" (timing-only: no data computed) or "not-checked" (outputs
  // computed, but nothing to compare them with: a binary without its reference graph)
  std::string status = "skipped";
  std::string reason;  // why skipped or not checked, or the first mismatch
  uint64_t bytes = 0, mismatches = 0;
};

// A fused layer group (row strips: compiler/network/row_strips.h), its layers' figures summed.
struct GroupReport {
  std::string name;  // its nodes joined by '+' ("<producer>+<consumer>" for a pair)
  // Row strips (compiler/network/row_strips.h) or channel groups (channel_groups.h), and how
  // many of them: strips for the one, channel_groups for the other, 0 for the other count.
  std::string kind = "row_strips";  // or "channel_groups"
  uint32_t strips = 0, channel_groups = 0, layers = 0;
  uint64_t cycles = 0, predicted_cycles = 0, roofline_cycles = 0;
  uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
};

struct RunReport {
  Provenance provenance;
  std::string model;
  spec::NpuConfig config;
  std::string mode = "full";  // or "timing-only"
  int64_t batch = 1;          // inferences per run
  double compile_seconds = 0, simulate_seconds = 0;
  uint32_t instructions = 0;
  uint64_t image_dram_bytes = 0;
  // Totals.
  uint64_t cycles = 0, predicted_cycles = 0, macs = 0;
  uint64_t int4_macs = 0;  // of macs, with int4 weights: the layers' (compiler)
  uint64_t fp16_macs = 0;  // of macs, in FP16: the layers' (compiler)
  double latency_us = 0, inferences_per_second = 0, mac_utilisation = 0;
  uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  double achieved_gbps = 0, peak_gbps = 0;
  uint64_t roofline_cycles = 0;  // sum over layers
  uint64_t min_dram_bytes = 0;   // sum over layers: constants once, inputs and outputs once
  // Where the time and the MACs went: NPU runs (doorbell to completion), CPU ops (first read to
  // last write), and the rest (the firmware between steps).
  uint64_t npu_cycles = 0, cpu_cycles = 0, other_cycles = 0;
  uint64_t npu_macs = 0, cpu_macs = 0;  // the layers' MACs (compiler) by engine
  uint32_t npu_steps = 0, cpu_steps = 0;
  uint64_t fetch_cycles = 0, dispatch_stall_cycles = 0;
  uint64_t peak_sram_bytes = 0;
  std::vector<QueueReport> queues;  // load, compute, vector, store
  std::vector<LayerReport> layers;
  std::vector<GroupReport> groups;  // in the order their first layers run
  std::optional<DramReport> dram;  // absent under IDEAL
  // Energy: the layers' summed; per MAC and per inference. Area at the config's node.
  EnergyFigures energy;
  double pj_per_mac = 0, inferences_per_joule = 0;
  spec::AreaBreakdown area{};  // mm^2 per unit
  double area_mm2 = 0;
  CheckReport check;
  // int8 against float for whole models (compiler/accuracy): its JSON object and text table.
  std::string accuracy_json, accuracy_text;
  // --precision auto: this program against the same model all int8, both as the compiler
  // predicts them (exact on the IDEAL DRAM).
  struct PrecisionComparison {
    uint64_t int4_layers = 0, fp16_layers = 0;
    uint64_t int8_cycles = 0, int8_dram_bytes = 0;  // all int8
    uint64_t cycles = 0, dram_bytes = 0;            // as chosen
  };
  std::optional<PrecisionComparison> precision;
  std::optional<TuningSummary> tuning;  // --tune, or a stored tuning the compile used
};

// Everything the report needs from one compile and one run.
struct RunInputs {
  std::string model;
  const spec::NpuConfig* config;
  const spec::Program* program;
  const fw::Counters* counters;
  const std::vector<hw::InsnRecord>* records;  // per program instruction, on the timeline
  const std::vector<fw::StepTiming>* steps;    // per program step, on the timeline
  uint64_t cycles = 0;                         // the inference, on the timeline
  bool timing_only = false;
  double compile_seconds = 0, simulate_seconds = 0;
  int64_t batch = 1;
  const spec::DramStats* dram = nullptr;  // the platform DRAM's counts, if known
};

RunReport BuildRunReport(const RunInputs& in);

// The DRAM traffic over its least (RunReport::min_dram_bytes); 0 if that is 0.
double DramRatio(const RunReport& r);

}  // namespace npu::report
