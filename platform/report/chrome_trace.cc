// Trace events -> Chrome trace JSON.
#include "platform/report/chrome_trace.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

#include "hw/spec/layer_attribution.h"

namespace npu::report {
namespace {

using Json = nlohmann::ordered_json;

// Tracks in pipeline order: the control core, fetch, load, compute, vector, store.
int TrackRank(const std::string& engine) {
  static const char* kOrder[] = {"cpu", "fetch", "load", "compute", "vector", "store"};
  for (int i = 0; i < 6; ++i) {
    if (engine.rfind(kOrder[i], 0) == 0) return i;
  }
  return 6;
}

// Per instruction, the name of its layer ("" for none), built once: an interleaved layer's
// instructions are a list, not a range (spec::LayerInstructions).
std::vector<std::string_view> LayerNames(const spec::Program& program) {
  std::vector<std::string_view> names(program.instructions().size() / spec::kInsnBytes);
  for (const spec::LayerInfo& l : program.layers()) {
    for (uint32_t k : spec::LayerInstructions(l)) {
      if (k < names.size()) names[k] = l.name();
    }
  }
  return names;
}

Json Event(const std::string& name, const char* category, int tid, uint64_t begin, uint64_t end,
           double mhz) {
  return {{"name", name},      {"cat", category},           {"ph", "X"}, {"pid", 1}, {"tid", tid},
          {"ts", begin / mhz}, {"dur", (end - begin) / mhz}};
}

// One engine's events in time order, with idle events filling the gaps up to `total`.
void AddTrack(Json& out, int tid, std::vector<const hw::TraceEvent*> events, uint64_t total,
              double mhz, const std::vector<std::string_view>& layer_names) {
  std::sort(events.begin(), events.end(), [](const hw::TraceEvent* a, const hw::TraceEvent* b) {
    return a->begin_cycle < b->begin_cycle;
  });
  uint64_t cursor = 0;
  for (const hw::TraceEvent* e : events) {
    if (e->begin_cycle > cursor)
      out.push_back(Event("idle", "idle", tid, cursor, e->begin_cycle, mhz));
    const bool wait = e->name.rfind("wait", 0) == 0 || e->name == "queue full";
    Json event = Event(e->name, wait ? "stall" : "busy", tid, e->begin_cycle, e->end_cycle, mhz);
    if (e->insn >= 0) {
      const std::string_view layer =
          size_t(e->insn) < layer_names.size() ? layer_names[e->insn] : std::string_view();
      event["args"] = {{"insn", e->insn}, {"layer", layer}};
    }
    out.push_back(std::move(event));
    cursor = std::max(cursor, e->end_cycle);
  }
  if (total > cursor) out.push_back(Event("idle", "idle", tid, cursor, total, mhz));
}

}  // namespace

std::string ToChromeTrace(const std::vector<hw::TraceEvent>& events,
                          const std::vector<fw::StepTiming>& steps, uint64_t total_cycles,
                          const spec::NpuConfig& config, const spec::Program& program) {
  std::vector<hw::TraceEvent> cpu_ops;
  for (int i = 0; i < program.steps_size() && i < int(steps.size()); ++i) {
    if (!program.steps(i).has_cpu()) continue;
    cpu_ops.push_back(
        {"cpu", program.steps(i).cpu().name(), steps[i].begin_cycle, steps[i].end_cycle, -1});
  }
  std::map<std::string, std::vector<const hw::TraceEvent*>> by_engine;
  for (const hw::TraceEvent& e : events) by_engine[e.engine].push_back(&e);
  for (const hw::TraceEvent& e : cpu_ops) by_engine[e.engine].push_back(&e);
  std::vector<std::string> engines;
  for (const auto& [name, _] : by_engine) engines.push_back(name);
  std::stable_sort(engines.begin(), engines.end(), [](const std::string& a, const std::string& b) {
    return TrackRank(a) < TrackRank(b);
  });
  const double mhz = config.clock_mhz();
  const std::vector<std::string_view> layer_names = LayerNames(program);
  Json trace = Json::array();
  trace.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "NPU"}}}});
  for (size_t tid = 0; tid < engines.size(); ++tid) {
    trace.push_back({{"name", "thread_name"},
                     {"ph", "M"},
                     {"pid", 1},
                     {"tid", tid},
                     {"args", {{"name", engines[tid]}}}});
    trace.push_back({{"name", "thread_sort_index"},
                     {"ph", "M"},
                     {"pid", 1},
                     {"tid", tid},
                     {"args", {{"sort_index", tid}}}});
    AddTrack(trace, int(tid), by_engine[engines[tid]], total_cycles, mhz, layer_names);
  }
  Json doc = {{"traceEvents", trace},
              {"displayTimeUnit", "ns"},
              {"otherData",
               {{"model", program.model_name()},
                {"clock_mhz", config.clock_mhz()},
                {"total_cycles", total_cycles}}}};
  return doc.dump() + "\n";
}

}  // namespace npu::report
