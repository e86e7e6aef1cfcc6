// ONNX TensorProto <-> IR constant data: element types, raw_data and the typed repeated fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/onnx/proto.h"
#include "hw/spec/status.h"

namespace npu::compiler::onnx_detail {

// The IR element type of an ONNX TensorProto.DataType, or nullopt for types the IR lacks.
std::optional<ir::DType> DTypeFromOnnx(int32_t elem_type);
int32_t OnnxFromDType(ir::DType dtype);
std::string OnnxTypeName(int32_t elem_type);  // "FLOAT16", for error messages

struct ConstantData {
  ir::DType dtype = ir::DType::kUnknown;
  ir::Shape shape;
  std::vector<uint8_t> bytes;  // little-endian, NumElements(shape) * DTypeBytes(dtype)
};

// Reads an initializer or a Constant's value. `what` names it in errors ("initializer 'w'").
// Fails on external data, unsupported element types and a data size that disagrees with dims.
StatusOr<ConstantData> ReadTensorProto(const pb::TensorProto& proto, const std::string& what);

// Writes `t`'s constant data as raw_data.
void WriteTensorProto(const ir::Tensor& t, pb::TensorProto* proto);

}  // namespace npu::compiler::onnx_detail
