// The front-end pipeline: the one ordered list of passes (no static-init registry; greppable),
// and the loop that runs and verifies them.
#include "compiler/passes/pipeline.h"

#include <fmt/format.h>

#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/passes/passes.h"

namespace npu::compiler::passes {
namespace {

constexpr PassInfo kPipeline[] = {
    {"infer-shapes", "set every tensor's type, shape and layout from the op rules", InferShapes},
    {"fold-constants", "evaluate nodes whose inputs are constants (shape chains, weight math)",
     FoldConstants},
    {"eliminate-identity", "bypass Identity/Dropout, same-shape Reshape/Flatten, no-op ops",
     EliminateIdentity},
    {"eliminate-dead-code", "remove nodes and constants nothing reads", EliminateDeadCode},
    {"canonicalize-1d", "1-D Conv/pools/BN on [N,C,L] -> 2-D ones on [N,C,1,L]", Canonicalize1D},
    {"recognize-layernorm", "torch's exported LayerNorm chain -> LayerNormalization",
     RecognizeLayerNorm},
    {"recognize-channel-shuffle", "Reshape-Transpose-Reshape channel shuffle -> ChannelShuffle",
     RecognizeChannelShuffle},
    {"reduce-mean-to-gap", "ReduceMean over H and W -> GlobalAveragePool", ReduceMeanToGlobalPool},
    {"fold-pad", "constant Pad into the Conv/AveragePool/MaxPool reading it", FoldPad},
    {"fold-batchnorm", "fold BatchNormalization into the single-use Conv before it", FoldBatchNorm},
    {"batchnorm-to-conv", "remaining BatchNormalization -> depthwise 1x1 Conv", BatchNormToConv},
    {"fold-scale-bias", "per-channel constant Mul/Add into the Conv/Gemm/MatMul before it",
     FoldScaleBias},
    {"fuse-conv-activation", "Conv [+ bias Add] [+ Relu/Clip(0,6)] -> FusedConv",
     FuseConvActivation},
    {"fuse-add-activation", "Add + Relu/Clip(0,6) -> FusedAdd", FuseAddActivation},
    {"convert-layout-nhwc", "make 4-D activations NHWC, transposes only at the borders",
     ConvertLayoutNHWC},
};

std::string PassNames() {
  std::vector<std::string_view> names;
  for (const PassInfo& p : kPipeline) names.push_back(p.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

std::span<const PassInfo> ListPasses() { return kPipeline; }

StatusOr<PassInfo> FindPass(std::string_view name) {
  for (const PassInfo& p : kPipeline) {
    if (p.name == name) return p;
  }
  return NotFound(fmt::format("no pass named '{}'; the passes are: {}", name, PassNames()));
}

Status VerifyGraph(const ir::Graph& graph) {
  NPU_TRY(ir::Verify(graph));
  return VerifyShapes(graph);
}

Status RunPass(const PassInfo& pass, ir::Graph& graph, PassContext& ctx) {
  NPU_TRY(pass.run(graph, ctx).WithContext(fmt::format("pass '{}'", pass.name)));
  const Status verified = VerifyGraph(graph);
  if (!verified.ok()) {
    return Internal(fmt::format("pass '{}' left an invalid graph (a compiler bug): {}", pass.name,
                                verified.message()));
  }
  return Status::Ok();
}

Status RunPipeline(ir::Graph& graph, const PipelineOptions& options, PassContext& ctx) {
  // 1. Names in the options must be passes.
  for (const std::string& name : options.disabled) NPU_TRY(FindPass(name).status());
  if (!options.dump_after.empty()) {
    NPU_TRY(FindPass(options.dump_after).status());
    if (options.disabled.count(options.dump_after)) {
      return InvalidArgument(
          fmt::format("--dump-after={} names a disabled pass", options.dump_after));
    }
  }
  // 2. The input must be well formed; without shape inference it must be typed already.
  NPU_TRY(ir::Verify(graph, {.require_types = false}).WithContext("input graph"));
  if (options.disabled.count("infer-shapes")) {
    NPU_TRY(VerifyGraph(graph).WithContext("input graph (infer-shapes is disabled)"));
  }
  // 3. The passes.
  for (const PassInfo& pass : kPipeline) {
    if (options.disabled.count(std::string(pass.name))) continue;
    NPU_TRY(RunPass(pass, graph, ctx));
    if (pass.name == options.dump_after) ctx.dump = ir::PrintGraph(graph);
  }
  return Status::Ok();
}

}  // namespace npu::compiler::passes
