// Front-end benchmarks (Google Benchmark; not a ctest): building + optimising resnet18, and
// interpreting it, NCHW as imported and NHWC after the pipeline. Run on one core:
//   taskset -c 0 build/tests/bench/frontend_bench --benchmark_repetitions=5
// docs/frontend-performance.md has the figures and the profile.
#include <benchmark/benchmark.h>

#include "compiler/interp/interpreter.h"
#include "compiler/passes/pipeline.h"
#include "workloads/models/models.h"

namespace npu {
namespace {

namespace ir = compiler::ir;

ir::Graph Resnet18() {
  StatusOr<ir::Graph> g = workloads::BuildModel("resnet18");
  if (!g.ok()) std::abort();
  return std::move(*g);
}

// Import (build + shape inference) and the whole pipeline.
void BM_ImportAndOptimiseResnet18(benchmark::State& state) {
  for (auto _ : state) {
    ir::Graph g = Resnet18();
    compiler::passes::PassContext ctx;
    if (!compiler::passes::RunPipeline(g, {}, ctx).ok()) state.SkipWithError("pipeline failed");
    benchmark::DoNotOptimize(g);
  }
}
BENCHMARK(BM_ImportAndOptimiseResnet18)->Unit(benchmark::kMillisecond);

// The pipeline alone, on a fresh copy of the imported graph each time.
void BM_OptimiseResnet18(benchmark::State& state) {
  const ir::Graph imported = Resnet18();
  for (auto _ : state) {
    state.PauseTiming();
    ir::Graph g = imported.Clone();
    state.ResumeTiming();
    compiler::passes::PassContext ctx;
    if (!compiler::passes::RunPipeline(g, {}, ctx).ok()) state.SkipWithError("pipeline failed");
  }
}
BENCHMARK(BM_OptimiseResnet18)->Unit(benchmark::kMillisecond);

void Interpret(benchmark::State& state, bool optimised) {
  ir::Graph g = Resnet18();
  compiler::passes::PassContext ctx;
  if (optimised && !compiler::passes::RunPipeline(g, {}, ctx).ok()) std::abort();
  const std::vector<compiler::interp::HostTensor> inputs = workloads::MakeInputs(g, 1);
  for (auto _ : state) {
    auto out = compiler::interp::Interpret(g, inputs);
    if (!out.ok()) state.SkipWithError(out.status().message().c_str());
    benchmark::DoNotOptimize(out);
  }
  state.counters["GMAC/s"] =
      benchmark::Counter(1.814073344e9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_InterpretResnet18Nchw(benchmark::State& state) { Interpret(state, false); }
void BM_InterpretResnet18Nhwc(benchmark::State& state) { Interpret(state, true); }
BENCHMARK(BM_InterpretResnet18Nchw)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_InterpretResnet18Nhwc)->Unit(benchmark::kMillisecond);

void BM_InterpretMobileNetV2(benchmark::State& state) {
  StatusOr<ir::Graph> g = workloads::BuildModel("mobilenet_v2");
  if (!g.ok()) std::abort();
  const std::vector<compiler::interp::HostTensor> inputs = workloads::MakeInputs(*g, 1);
  for (auto _ : state) benchmark::DoNotOptimize(compiler::interp::Interpret(*g, inputs));
}
BENCHMARK(BM_InterpretMobileNetV2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace npu

BENCHMARK_MAIN();
