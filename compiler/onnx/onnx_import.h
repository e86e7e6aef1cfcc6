// ONNX import: a model exported by torch.onnx.export, tf2onnx or similar (default-domain opsets
// 11 to 17) becomes a graph IR with static shapes on its inputs. compiler/onnx/README.md lists
// the supported ops and what import normalises (attributes the rest of the compiler relies on).
//
//   ImportOptions options;
//   options.input_shapes["images"] = {1, 3, 224, 224};  // fixes symbolic dims of that input
//   StatusOr<ir::Graph> g = ImportOnnxFile("resnet.onnx", options);
//
// Every failure is a Status naming the node, tensor or dimension at fault; an unsupported model
// gets one error listing every unsupported node.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct ImportOptions {
  // Static shapes of graph inputs, by input name. They fix the input's symbolic (dim_param) and
  // missing dims; dims the model gives as numbers must agree.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // For an input not named in input_shapes whose only symbolic dim is the first (the batch):
  // the size that dim gets. 0 turns the default off, making such an input an error.
  int64_t batch = 1;
};

StatusOr<ir::Graph> ImportOnnxBytes(std::string_view bytes, const ImportOptions& options = {});
StatusOr<ir::Graph> ImportOnnxFile(const std::string& path, const ImportOptions& options = {});

}  // namespace npu::compiler
