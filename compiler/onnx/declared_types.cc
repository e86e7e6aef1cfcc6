// Declared types and symbolic dims.
#include "compiler/onnx/declared_types.h"

#include <fmt/format.h>

#include "compiler/onnx/tensor_proto.h"

namespace npu::compiler::onnx_detail {
namespace {

std::string DimText(const DeclaredDim& d) {
  if (d.value >= 0) return std::to_string(d.value);
  return d.param.empty() ? "?" : d.param;
}

std::string UnresolvedText(const DeclaredType& t, const std::vector<size_t>& dims) {
  std::vector<std::string> parts;
  for (size_t i : dims) {
    const DeclaredDim& d = t.dims[i];
    parts.push_back(d.param.empty() ? fmt::format("dim {} (no size given)", i)
                                    : fmt::format("dim {} ('{}')", i, d.param));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Checks a user-given shape against the declared one and binds the declared symbols.
StatusOr<ir::Shape> ApplyGivenShape(const std::string& name, const DeclaredType& t,
                                    const std::vector<int64_t>& given, SymbolTable& symbols) {
  const std::string given_text = ir::ShapeText(given);
  if (t.has_shape && given.size() != t.dims.size()) {
    return InvalidArgument(
        fmt::format("input_shapes gives graph input '{}' the shape {} of rank "
                    "{}, but the model declares {} of rank {}",
                    name, given_text, given.size(), DeclaredShapeText(t), t.dims.size()));
  }
  for (size_t i = 0; i < given.size(); ++i) {
    if (given[i] <= 0) {
      return InvalidArgument(
          fmt::format("input_shapes gives graph input '{}' dim {} the size {}", name, i, given[i]));
    }
    if (!t.has_shape) continue;
    const DeclaredDim& d = t.dims[i];
    if (d.value >= 0 && d.value != given[i]) {
      return InvalidArgument(
          fmt::format("input_shapes gives graph input '{}' the shape {}, but "
                      "the model fixes dim {} to {} ({})",
                      name, given_text, i, d.value, DeclaredShapeText(t)));
    }
    if (d.value < 0 && !d.param.empty()) {
      auto [it, added] = symbols.emplace(d.param, given[i]);
      if (!added && it->second != given[i]) {
        return InvalidArgument(
            fmt::format("symbolic dim '{}' is {} for one input but {} for graph "
                        "input '{}' dim {}",
                        d.param, it->second, given[i], name, i));
      }
    }
  }
  return ir::Shape(given.begin(), given.end());
}

}  // namespace

StatusOr<DeclaredType> ReadDeclaredType(const pb::ValueInfoProto& vi) {
  if (!vi.has_type() || !vi.type().has_tensor_type()) {
    return Unimplemented(
        fmt::format("'{}' is not declared as a tensor (no tensor type)", vi.name()));
  }
  const pb::TypeProto::Tensor& tt = vi.type().tensor_type();
  DeclaredType t;
  t.elem_type = tt.elem_type();
  t.has_shape = tt.has_shape();
  for (const pb::TensorShapeProto::Dimension& d : tt.shape().dim()) {
    DeclaredDim dim;
    if (d.has_dim_value() && d.dim_value() >= 0) dim.value = d.dim_value();
    if (d.has_dim_param()) dim.param = d.dim_param();
    t.dims.push_back(dim);
  }
  return t;
}

std::string DeclaredShapeText(const DeclaredType& t) {
  if (!t.has_shape) return "(no shape)";
  std::vector<std::string> dims;
  for (const DeclaredDim& d : t.dims) dims.push_back(DimText(d));
  return fmt::format("[{}]", fmt::join(dims, ","));
}

Status CheckDeclared(const std::string& what, const DeclaredType& t, ir::DType dtype,
                     const ir::Shape& shape) {
  if (t.elem_type != 0 && DTypeFromOnnx(t.elem_type) != dtype) {
    return InvalidArgument(fmt::format("{} holds {} data but is declared {}", what,
                                       ir::DTypeName(dtype), OnnxTypeName(t.elem_type)));
  }
  if (!t.has_shape) return Status::Ok();
  bool agrees = t.dims.size() == shape.size();
  for (size_t i = 0; agrees && i < shape.size(); ++i) {
    agrees = t.dims[i].value < 0 || t.dims[i].value == shape[i];
  }
  if (agrees) return Status::Ok();
  return InvalidArgument(fmt::format("{} has shape {} but is declared {}", what,
                                     ir::ShapeText(shape), DeclaredShapeText(t)));
}

// 1. A shape given in options wins: same rank, same numbers where the model has numbers; its
//    sizes bind the model's symbols.
// 2. Otherwise a declared number stays, a symbol bound by an earlier input takes that size.
// 3. If the only dim left is the first (the batch), it gets options.batch (unless 0).
// 4. Anything still unknown is an error naming the input and every such dim.
StatusOr<ir::Shape> ResolveInputShape(const std::string& name, const DeclaredType& t,
                                      const ImportOptions& options, SymbolTable& symbols) {
  auto given = options.input_shapes.find(name);
  if (given != options.input_shapes.end()) {
    return ApplyGivenShape(name, t, given->second, symbols);
  }
  if (!t.has_shape) {
    return InvalidArgument(
        fmt::format("graph input '{}' declares no shape; give its static shape "
                    "in ImportOptions::input_shapes",
                    name));
  }
  ir::Shape shape;
  std::vector<size_t> unresolved;
  for (size_t i = 0; i < t.dims.size(); ++i) {
    const DeclaredDim& d = t.dims[i];
    auto bound = d.param.empty() ? symbols.end() : symbols.find(d.param);
    shape.push_back(d.value >= 0 ? d.value : bound != symbols.end() ? bound->second : -1);
    if (shape.back() < 0) unresolved.push_back(i);
  }
  if (unresolved.size() == 1 && unresolved[0] == 0 && options.batch > 0) {
    shape[0] = options.batch;
    if (!t.dims[0].param.empty()) symbols.emplace(t.dims[0].param, options.batch);
    unresolved.clear();
  }
  if (!unresolved.empty()) {
    return InvalidArgument(
        fmt::format("graph input '{}' {} has dynamic {}; give its static shape "
                    "in ImportOptions::input_shapes",
                    name, DeclaredShapeText(t), UnresolvedText(t, unresolved)));
  }
  return shape;
}

std::optional<ir::Shape> StaticShape(const DeclaredType& t, const SymbolTable& symbols) {
  if (!t.has_shape) return std::nullopt;
  ir::Shape shape;
  for (const DeclaredDim& d : t.dims) {
    if (d.value >= 0) {
      shape.push_back(d.value);
      continue;
    }
    auto bound = d.param.empty() ? symbols.end() : symbols.find(d.param);
    if (bound == symbols.end()) return std::nullopt;
    shape.push_back(bound->second);
  }
  return shape;
}

}  // namespace npu::compiler::onnx_detail
