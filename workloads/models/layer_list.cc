// BuildLayerList: the parsed rows as independent layers of one graph.
#include "workloads/models/layer_list.h"

#include <filesystem>

#include "compiler/passes/passes.h"
#include "compiler/passes/pipeline.h"
#include "hw/spec/file_io.h"
#include "workloads/models/layer_list_csv.h"
#include "workloads/models/model_builder.h"

namespace npu::workloads {
namespace {

namespace ir = compiler::ir;

// One row: its own input, one node named after it; the node's output.
ir::Tensor* AddLayer(ModelBuilder& b, const LayerRow& row) {
  const std::string input = row.name + ".input";
  if (const auto* g = std::get_if<GemmRow>(&row.shape)) {
    return b.MatMul(b.Input(input, {1, g->m, g->k}), row.name, g->k, g->n);
  }
  const ConvRow& c = std::get<ConvRow>(row.shape);
  ir::Tensor* x = b.Input(input, {1, c.channels, c.ifmap_h, c.ifmap_w});
  return b.Conv(x, row.name, c.channels, c.filters, {c.filter_h, c.filter_w, c.stride, c.stride},
                /*bias=*/true);
}

}  // namespace

bool IsLayerListPath(std::string_view model) {
  return model.size() > 4 && model.substr(model.size() - 4) == ".csv";
}

StatusOr<ir::Graph> BuildLayerList(const std::string& path) {
  NPU_ASSIGN_OR_RETURN(const std::string text, spec::ReadWholeFile(path, "layer list"));
  NPU_ASSIGN_OR_RETURN(const std::vector<LayerRow> rows, ParseLayerList(text, path));
  ModelBuilder b(std::filesystem::path(path).stem().string(), kLayerListSeed);
  std::vector<ir::Tensor*> outputs;
  for (const LayerRow& row : rows) outputs.push_back(AddLayer(b, row));
  ir::Graph g = b.Finish(outputs);
  compiler::passes::PassContext ctx;
  NPU_TRY(compiler::passes::InferShapes(g, ctx));
  NPU_TRY(compiler::passes::VerifyGraph(g));
  return g;
}

}  // namespace npu::workloads
