// The front-end pipeline: the ordered passes (pipeline.cc is the only list), a verifier run after
// each one (structure, types and shapes), switches to turn passes off and to print the graph
// after one of them.
#pragma once

#include <set>
#include <span>
#include <string>
#include <string_view>

#include "compiler/ir/graph.h"
#include "compiler/passes/pass_context.h"
#include "hw/spec/status.h"

namespace npu::compiler::passes {

using PassFn = Status (*)(ir::Graph&, PassContext&);

struct PassInfo {
  std::string_view name;     // "fold-batchnorm": for --disable-pass and --dump-after
  std::string_view summary;  // one line for --list-passes
  PassFn run;
};

// In pipeline order.
std::span<const PassInfo> ListPasses();
// NotFound, listing the passes, for an unknown name.
StatusOr<PassInfo> FindPass(std::string_view name);

struct PipelineOptions {
  std::set<std::string> disabled;  // pass names to skip
  std::string dump_after;          // print the graph into PassContext::dump after this pass
};

// The full check run between passes: ir::Verify (structure, element types) and VerifyShapes.
Status VerifyGraph(const ir::Graph& graph);

// Runs one pass, then VerifyGraph; a failing verification is reported as the pass's bug.
Status RunPass(const PassInfo& pass, ir::Graph& graph, PassContext& ctx);

// Checks the options' pass names, verifies the input graph's structure, then runs every enabled
// pass in order with RunPass.
Status RunPipeline(ir::Graph& graph, const PipelineOptions& options, PassContext& ctx);

}  // namespace npu::compiler::passes
