// TensorProto reading and writing. ONNX stores tensor data either as raw little-endian bytes
// (raw_data, what torch.onnx.export writes) or in a repeated field chosen by element type
// (float_data; int32_data also for int8/uint8; int64_data). Both are accepted on import; export
// always writes raw_data.
#include "compiler/onnx/tensor_proto.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <limits>

namespace npu::compiler::onnx_detail {
namespace {

static_assert(std::endian::native == std::endian::little, "constant data is little-endian");

// Larger constants are refused rather than risking an allocation failure on a corrupt file.
constexpr int64_t kMaxConstantBytes = int64_t{1} << 32;

template <class T, class Field>
StatusOr<std::vector<uint8_t>> FromTypedField(const Field& values, int64_t count,
                                              const std::string& what) {
  if (static_cast<int64_t>(values.size()) != count) {
    return InvalidArgument(
        fmt::format("{} holds {} values but its dims need {}", what, values.size(), count));
  }
  std::vector<uint8_t> bytes(count * sizeof(T));
  for (int64_t i = 0; i < count; ++i) {
    const auto v = values.Get(i);
    if constexpr (!std::is_same_v<T, float>) {
      if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) {
        return InvalidArgument(
            fmt::format("{} value {} at index {} is out of range for its type", what, v, i));
      }
    }
    const T cast = static_cast<T>(v);
    std::memcpy(bytes.data() + i * sizeof(T), &cast, sizeof(T));
  }
  return bytes;
}

StatusOr<std::vector<uint8_t>> TypedData(const pb::TensorProto& p, ir::DType dtype, int64_t count,
                                         const std::string& what) {
  switch (dtype) {
    case ir::DType::kFloat32:
      return FromTypedField<float>(p.float_data(), count, what);
    case ir::DType::kInt8:
      return FromTypedField<int8_t>(p.int32_data(), count, what);
    case ir::DType::kUInt8:
      return FromTypedField<uint8_t>(p.int32_data(), count, what);
    case ir::DType::kInt32:
      return FromTypedField<int32_t>(p.int32_data(), count, what);
    case ir::DType::kInt64:
      return FromTypedField<int64_t>(p.int64_data(), count, what);
    case ir::DType::kFloat16:  // not imported (DTypeFromOnnx): FP16 graphs are the compiler's own
    case ir::DType::kUnknown:
      break;
  }
  return InvalidArgument(fmt::format("{} has no element type", what));
}

}  // namespace

std::optional<ir::DType> DTypeFromOnnx(int32_t elem_type) {
  switch (elem_type) {
    case pb::TensorProto::FLOAT:
      return ir::DType::kFloat32;
    case pb::TensorProto::INT8:
      return ir::DType::kInt8;
    case pb::TensorProto::UINT8:
      return ir::DType::kUInt8;
    case pb::TensorProto::INT32:
      return ir::DType::kInt32;
    case pb::TensorProto::INT64:
      return ir::DType::kInt64;
    default:
      return std::nullopt;
  }
}

int32_t OnnxFromDType(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kFloat32:
      return pb::TensorProto::FLOAT;
    case ir::DType::kInt8:
      return pb::TensorProto::INT8;
    case ir::DType::kUInt8:
      return pb::TensorProto::UINT8;
    case ir::DType::kInt32:
      return pb::TensorProto::INT32;
    case ir::DType::kInt64:
      return pb::TensorProto::INT64;
    case ir::DType::kFloat16:
      return pb::TensorProto::FLOAT16;
    case ir::DType::kUnknown:
      break;
  }
  return pb::TensorProto::UNDEFINED;
}

std::string OnnxTypeName(int32_t elem_type) {
  if (pb::TensorProto::DataType_IsValid(elem_type)) {
    return pb::TensorProto::DataType_Name(static_cast<pb::TensorProto::DataType>(elem_type));
  }
  return fmt::format("type {}", elem_type);
}

StatusOr<ConstantData> ReadTensorProto(const pb::TensorProto& p, const std::string& what) {
  // 1. Data stored outside the model file is not read: say how to inline it.
  if (p.data_location() == pb::TensorProto::EXTERNAL || p.external_data_size() > 0) {
    return Unimplemented(
        fmt::format("{} keeps its data in an external file; re-save the model with the data inside "
                    "(onnx.save_model(model, path, save_as_external_data=False))",
                    what));
  }
  // 2. Element type and shape, with an overflow-safe size.
  ConstantData c;
  const std::optional<ir::DType> dtype = DTypeFromOnnx(p.data_type());
  if (!dtype) {
    return Unimplemented(
        fmt::format("{} has element type {}; supported: FLOAT, INT8, UINT8, "
                    "INT32, INT64",
                    what, OnnxTypeName(p.data_type())));
  }
  c.dtype = *dtype;
  int64_t count = 1;
  for (int64_t d : p.dims()) {
    if (d < 0) return InvalidArgument(fmt::format("{} has a negative dimension {}", what, d));
    if (d > 0 && count > kMaxConstantBytes / d) {
      return ResourceExhausted(fmt::format("{} is larger than {} bytes", what, kMaxConstantBytes));
    }
    count *= d;
    c.shape.push_back(d);
  }
  const int64_t size = count * static_cast<int64_t>(ir::DTypeBytes(c.dtype));
  if (size > kMaxConstantBytes) {
    return ResourceExhausted(fmt::format("{} is larger than {} bytes", what, kMaxConstantBytes));
  }
  // 3. The data: raw bytes, else the typed field.
  if (p.has_raw_data()) {
    if (static_cast<int64_t>(p.raw_data().size()) != size) {
      return InvalidArgument(fmt::format("{} {}{} needs {} bytes of raw_data but has {}", what,
                                         ir::DTypeName(c.dtype), ir::ShapeText(c.shape), size,
                                         p.raw_data().size()));
    }
    c.bytes.assign(p.raw_data().begin(), p.raw_data().end());
    return c;
  }
  NPU_ASSIGN_OR_RETURN(c.bytes, TypedData(p, c.dtype, count, what));
  return c;
}

void WriteTensorProto(const ir::Tensor& t, pb::TensorProto* p) {
  p->set_name(t.name());
  p->set_data_type(OnnxFromDType(t.dtype()));
  for (int64_t d : t.shape()) p->add_dims(d);
  p->set_raw_data(t.bytes().data(), t.bytes().size());
}

}  // namespace npu::compiler::onnx_detail
