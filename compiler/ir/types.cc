// Names and sizes of element types, layouts and shapes.
#include "compiler/ir/types.h"

#include <fmt/format.h>

namespace npu::compiler::ir {

std::string_view DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return "f32";
    case DType::kInt8:
      return "i8";
    case DType::kUInt8:
      return "u8";
    case DType::kInt32:
      return "i32";
    case DType::kInt64:
      return "i64";
    case DType::kFloat16:
      return "f16";
    case DType::kUnknown:
      break;
  }
  return "?";
}

size_t DTypeBytes(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
    case DType::kInt32:
      return 4;
    case DType::kInt8:
    case DType::kUInt8:
      return 1;
    case DType::kInt64:
      return 8;
    case DType::kFloat16:
      return 2;
    case DType::kUnknown:
      break;
  }
  return 0;
}

std::string_view LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kNCHW:
      return "NCHW";
    case Layout::kNHWC:
      return "NHWC";
    case Layout::kNone:
      break;
  }
  return "";
}

int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string ShapeText(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ",")); }

}  // namespace npu::compiler::ir
