// What a model declares about its tensors' types (graph inputs, outputs, value_info), and how
// symbolic dims become static ones: from ImportOptions for graph inputs, and by the same symbol
// name elsewhere.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/types.h"
#include "compiler/onnx/onnx_import.h"
#include "compiler/onnx/proto.h"
#include "hw/spec/status.h"

namespace npu::compiler::onnx_detail {

struct DeclaredDim {
  int64_t value = -1;  // < 0: not a number (symbolic or missing)
  std::string param;   // dim_param, if symbolic
};

struct DeclaredType {
  int32_t elem_type = 0;  // ONNX TensorProto.DataType
  bool has_shape = false;
  std::vector<DeclaredDim> dims;
};

// The tensor type of a ValueInfoProto; an error if it is not a tensor (sequence, map, ...).
StatusOr<DeclaredType> ReadDeclaredType(const pb::ValueInfoProto& vi);
std::string DeclaredShapeText(const DeclaredType& t);  // "[batch,3,?,224]"

// Fails if data of `dtype` and `shape` (an initializer or a Constant) contradicts declared type
// `t`: another element type, rank or numeric dim. `what` names the tensor in the error.
Status CheckDeclared(const std::string& what, const DeclaredType& t, ir::DType dtype,
                     const ir::Shape& shape);

// dim_param -> the static size it was given.
using SymbolTable = std::map<std::string, int64_t>;

// The static shape of graph input `name` (declared `t`): steps in ResolveInputShape's comment.
// Binds the input's symbols in `symbols`.
StatusOr<ir::Shape> ResolveInputShape(const std::string& name, const DeclaredType& t,
                                      const ImportOptions& options, SymbolTable& symbols);

// The declared shape with bound symbols substituted; nullopt if any dim stays unknown.
std::optional<ir::Shape> StaticShape(const DeclaredType& t, const SymbolTable& symbols);

}  // namespace npu::compiler::onnx_detail
