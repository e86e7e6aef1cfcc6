// RunReport -> JSON, keys in a fixed order.
#include "platform/report/json_report.h"

#include <fmt/format.h>
#include <google/protobuf/util/json_util.h>

#include <nlohmann/json.hpp>

#include "hw/spec/config.h"
#include "hw/spec/isa.h"

namespace npu::report {
namespace {

using Json = nlohmann::ordered_json;

Json StallsJson(const Stalls& s) {
  return {{"wait_input_cycles", s.wait_input},
          {"wait_buffer_cycles", s.wait_buffer},
          {"bank_conflict_cycles", s.bank_conflict},
          {"dram_stall_cycles", s.dram_stall},
          {"sram_bound_cycles", s.sram_bound}};
}

Json ConfigJson(const spec::NpuConfig& c) {
  std::string text;
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(c, &text, options);
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  j["fingerprint"] = fmt::format("{:016x}", spec::Fingerprint(c));
  return j;
}

Json EventsJson(const spec::UnitEvents& e) {
  return {{"macs", e.macs},
          {"fp16_macs", e.fp16_macs},
          {"sram_read_bytes", e.sram_read_bytes},
          {"sram_write_bytes", e.sram_write_bytes},
          {"sram_read_words", e.sram_read_words},
          {"sram_write_words", e.sram_write_words},
          {"acc_read_bytes", e.acc_read_bytes},
          {"acc_write_bytes", e.acc_write_bytes},
          {"vector_ops", e.vector_ops},
          {"vector_macs", e.vector_macs},
          {"vector_divides", e.vector_divides},
          {"dma_bytes", e.dma_bytes},
          {"dram_read_bytes", e.dram_read_bytes},
          {"dram_write_bytes", e.dram_write_bytes},
          {"fetched_instructions", e.fetched_instructions}};
}

// pJ per unit, in spec::EnergyUnit order.
Json EnergyJson(const EnergyFigures& f) {
  Json units = Json::object();
  for (int u = 0; u < spec::kNumEnergyUnits; ++u) {
    units[std::string(spec::EnergyUnitName(spec::EnergyUnit(u)))] = f.pj[u];
  }
  return {{"total_pj", f.total_pj}, {"units_pj", units}, {"events", EventsJson(f.events)}};
}

Json RunEnergyJson(const RunReport& r) {
  Json j = EnergyJson(r.energy);
  j["pj_per_mac"] = r.pj_per_mac;
  j["inferences_per_joule"] = r.inferences_per_joule;
  return j;
}

Json AreaJson(const RunReport& r) {
  Json units = Json::object();
  for (int u = 0; u < spec::kNumAreaUnits; ++u) {
    units[std::string(spec::AreaUnitName(spec::AreaUnit(u)))] = r.area[u];
  }
  return {{"total_mm2", r.area_mm2}, {"units_mm2", units}};
}

// Per queue, by name.
Json BusyJson(const std::array<uint64_t, spec::kNumQueues>& busy) {
  Json j = Json::object();
  for (int q = 0; q < spec::kNumQueues; ++q) j[std::string(spec::QueueName(spec::Queue(q)))] = busy[q];
  return j;
}

Json LayerJson(const LayerReport& l) {
  return {{"name", l.name},
          {"op", l.op},
          {"engine", l.engine},
          {"shape", l.shape},
          {"tiling", l.tiling},
          {"first_instruction", l.first_instruction},
          {"instructions", l.instruction_count},
          {"interleaved", l.interleaved},
          {"fused_group", l.fused_group},
          {"channel_group", l.channel_group},
          {"strip", l.strip},
          {"channel_part", l.channel_part},
          {"macs", l.macs},
          {"cycles", l.cycles},
          {"busy_cycles", BusyJson(l.busy_cycles)},
          {"predicted_cycles", l.predicted_cycles},
          {"mac_utilisation", l.mac_utilisation},
          {"stalls", StallsJson(l.stalls)},
          {"dram_read_bytes", l.dram_read_bytes},
          {"dram_write_bytes", l.dram_write_bytes},
          {"achieved_gbps", l.achieved_gbps},
          {"peak_sram_bytes", l.peak_sram_bytes},
          {"roofline_cycles", l.roofline_cycles},
          {"energy", EnergyJson(l.energy)}};
}

Json GroupsJson(const RunReport& r) {
  Json groups = Json::array();
  for (const GroupReport& g : r.groups) {
    groups.push_back({{"name", g.name},
                      {"kind", g.kind},
                      {"strips", g.strips},
                      {"channel_groups", g.channel_groups},
                      {"layers", g.layers},
                      {"cycles", g.cycles},
                      {"predicted_cycles", g.predicted_cycles},
                      {"roofline_cycles", g.roofline_cycles},
                      {"dram_read_bytes", g.dram_read_bytes},
                      {"dram_write_bytes", g.dram_write_bytes}});
  }
  return groups;
}

Json TotalsJson(const RunReport& r) {
  return {{"cycles", r.cycles},
          {"batch", r.batch},
          {"cycles_per_inference", r.cycles / uint64_t(std::max<int64_t>(r.batch, 1))},
          {"predicted_cycles", r.predicted_cycles},
          {"latency_us", r.latency_us},
          {"inferences_per_second", r.inferences_per_second},
          {"macs", r.macs},
          {"mac_utilisation", r.mac_utilisation},
          {"dram_read_bytes", r.dram_read_bytes},
          {"dram_write_bytes", r.dram_write_bytes},
          {"achieved_gbps", r.achieved_gbps},
          {"peak_gbps", r.peak_gbps},
          {"roofline_cycles", r.roofline_cycles},
          {"roofline_ratio", r.roofline_cycles ? double(r.cycles) / r.roofline_cycles : 0.0},
          {"min_dram_bytes", r.min_dram_bytes},
          {"dram_ratio", DramRatio(r)},
          {"fetch_cycles", r.fetch_cycles},
          {"dispatch_stall_cycles", r.dispatch_stall_cycles},
          {"peak_sram_bytes", r.peak_sram_bytes},
          {"engines",
           {{"npu_cycles", r.npu_cycles},
            {"cpu_cycles", r.cpu_cycles},
            {"other_cycles", r.other_cycles},
            {"npu_runs", r.npu_steps},
            {"cpu_ops", r.cpu_steps},
            {"npu_macs", r.npu_macs},
            {"cpu_macs", r.cpu_macs}}}};
}

// Fields a tool did not fill (a report built by a test) are left out.
Json ProvenanceJson(const RunReport& r) {
  const Provenance& p = r.provenance;
  Json j = Json::object();
  const auto add = [&](const char* name, const std::string& value) {
    if (!value.empty()) j[name] = value;
  };
  add("version", p.version);
  add("commit", p.commit);
  if (!p.commit.empty()) j["dirty"] = p.dirty;
  add("build_type", p.build_type);
  add("timestamp", p.timestamp);
  add("host", p.host);
  add("command_line", p.command_line);
  add("model_checksum", p.model_checksum);
  j["config_fingerprint"] = fmt::format("{:016x}", spec::Fingerprint(r.config));
  return j;
}

}  // namespace

std::string ToJson(const RunReport& r) {
  Json queues = Json::array();
  for (const QueueReport& q : r.queues) {
    queues.push_back({{"name", q.name},
                      {"busy_cycles", q.busy_cycles},
                      {"instructions", q.instructions},
                      {"stalls", StallsJson(q.stalls)}});
  }
  Json layers = Json::array();
  for (const LayerReport& l : r.layers) layers.push_back(LayerJson(l));
  Json j = {{"schema", "npu-run-report"},
            {"schema_version", kReportSchemaVersion},
            {"model", r.model},
            {"config", ConfigJson(r.config)},
            {"mode", r.mode},
            {"provenance", ProvenanceJson(r)},
            {"compile",
             {{"seconds", r.compile_seconds},
              {"instructions", r.instructions},
              {"image_dram_bytes", r.image_dram_bytes}}},
            {"simulation",
             {{"wall_seconds", r.simulate_seconds},
              {"cycles_per_second", r.simulate_seconds > 0 ? r.cycles / r.simulate_seconds : 0.0}}},
            {"totals", TotalsJson(r)},
            {"queues", queues},
            {"layers", layers},
            {"groups", GroupsJson(r)},
            {"energy", RunEnergyJson(r)},
            {"area", AreaJson(r)},
            {"check",
             {{"status", r.check.status},
              {"reason", r.check.reason},
              {"bytes", r.check.bytes},
              {"mismatches", r.check.mismatches}}}};
  if (r.dram) {
    j["dram"] = {{"standard", r.dram->standard},           {"bursts", r.dram->bursts},
                 {"row_hits", r.dram->row_hits},           {"row_misses", r.dram->row_misses},
                 {"row_conflicts", r.dram->row_conflicts}, {"refreshes", r.dram->refreshes},
                 {"row_hit_rate", r.dram->row_hit_rate},   {"efficiency", r.dram->efficiency}};
  }
  if (!r.accuracy_json.empty()) {
    j["accuracy"] = Json::parse(r.accuracy_json, nullptr, /*allow_exceptions=*/false);
  }
  if (const auto& p = r.precision) {
    j["precision"] = {{"int4_layers", p->int4_layers},
                      {"fp16_layers", p->fp16_layers},
                      {"predicted_cycles", p->cycles},
                      {"predicted_dram_bytes", p->dram_bytes},
                      {"int8_predicted_cycles", p->int8_cycles},
                      {"int8_predicted_dram_bytes", p->int8_dram_bytes}};
  }
  if (const auto& t = r.tuning) {
    j["tuning"] = {{"source", t->source},
                   {"file", t->file},
                   {"layers_searched", t->layers_searched},
                   {"layers", t->layers},
                   {"candidates", t->candidates},
                   {"seconds", t->seconds},
                   {"budget_spent", t->budget_spent},
                   {"tilings_changed", t->tilings_changed},
                   {"row_strip_pairs", t->row_strip_pairs},
                   {"row_strip_pairs_split", t->row_strip_pairs_split},
                   {"baseline_predicted_cycles", t->baseline_cycles},
                   {"tuned_predicted_cycles", t->tuned_cycles},
                   {"baseline_predicted_dram_bytes", t->baseline_dram_bytes},
                   {"tuned_predicted_dram_bytes", t->tuned_dram_bytes}};
  }
  return j.dump(2) + "\n";
}

}  // namespace npu::report
