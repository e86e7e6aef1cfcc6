// Tensors on the host, for the float reference interpreter, constant folding and shape inference.
//
// HostTensor owns its values. TensorRef is a read-only view of one operand: an interpreter value,
// a graph constant (no copy), or during shape inference only a type (data == nullptr). Values are
// stored in the shape's dimension order, whatever the layout tag says (an NHWC tensor of shape
// [N,H,W,C] has C innermost), little-endian, densely packed.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/ir/types.h"

namespace npu::compiler::interp {

// What shape inference knows about a tensor, and what the interpreter allocates.
struct TensorType {
  ir::DType dtype = ir::DType::kUnknown;
  ir::Shape shape;
  ir::Layout layout = ir::Layout::kNone;
  bool operator==(const TensorType&) const = default;
};

struct TensorRef;

struct HostTensor {
  ir::DType dtype = ir::DType::kFloat32;
  ir::Shape shape;
  ir::Layout layout = ir::Layout::kNone;
  std::vector<uint8_t> data;  // NumElements(shape) * DTypeBytes(dtype) bytes

  static HostTensor Zeros(const TensorType& type);
  template <class T>
  static HostTensor FromValues(ir::Shape shape, const std::vector<T>& values,
                               ir::Layout layout = ir::Layout::kNone) {
    HostTensor t;
    t.dtype = ir::DTypeOf<T>();
    t.shape = std::move(shape);
    t.layout = layout;
    t.data.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
    return t;
  }

  int64_t num_elements() const { return ir::NumElements(shape); }
  TensorType type() const { return {dtype, shape, layout}; }
  TensorRef ref() const;
  template <class T>
  std::span<T> values() {
    NPU_CHECK(ir::DTypeOf<T>() == dtype);
    return {reinterpret_cast<T*>(data.data()), data.size() / sizeof(T)};
  }
  template <class T>
  std::span<const T> values() const {
    NPU_CHECK(ir::DTypeOf<T>() == dtype);
    return {reinterpret_cast<const T*>(data.data()), data.size() / sizeof(T)};
  }
};

struct TensorRef {
  ir::DType dtype = ir::DType::kUnknown;  // kUnknown: an omitted optional input
  ir::Shape shape;
  ir::Layout layout = ir::Layout::kNone;
  const uint8_t* data = nullptr;  // null: the value is not known (shape inference)

  // A graph tensor's type, and its value if it is a constant.
  static TensorRef Of(const ir::Tensor& t);
  static TensorRef TypeOnly(const ir::Tensor& t);

  bool present() const { return dtype != ir::DType::kUnknown; }
  bool has_value() const { return data != nullptr; }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t num_elements() const { return ir::NumElements(shape); }
  template <class T>
  std::span<const T> values() const {
    NPU_CHECK(data != nullptr && ir::DTypeOf<T>() == dtype);
    return {reinterpret_cast<const T*>(data), static_cast<size_t>(num_elements())};
  }
};

// InvalidArgument unless every dim is >= 0, ResourceExhausted if the tensor would hold more than
// 2^31 elements (or its size overflows): checked before anything is allocated from a shape.
Status CheckAllocatable(const TensorType& type, const std::string& what);

// Max |a - b| over max(|b|) (b the reference), the project's measure of "equal outputs": error
// relative to the output's scale, so near-zero elements do not dominate. Shapes must match.
double MaxRelativeError(const HostTensor& a, const HostTensor& reference);

}  // namespace npu::compiler::interp
