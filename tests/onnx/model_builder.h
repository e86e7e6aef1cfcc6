// Hand-built ONNX models for import tests: the malformed and unusual cases torch never writes.
//
//   ModelBuilder m(13);
//   m.Input("x", {"1", "3", "8", "8"});
//   m.Initializer("w", {4, 3, 3, 3}, std::vector<float>(108, 0.1f));
//   m.Node("Conv", {"x", "w"}, {"y"}).Ints("pads", {1, 1, 1, 1});
//   m.Output("y");
//   StatusOr<ir::Graph> g = ImportOnnxBytes(m.Bytes());
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace npu::compiler::onnx_test {

// Attribute setters on a node, chainable.
class NodeRef {
 public:
  explicit NodeRef(::onnx::NodeProto* node) : node_(node) {}
  NodeRef& Int(const std::string& name, int64_t v);
  NodeRef& Float(const std::string& name, float v);
  NodeRef& Ints(const std::string& name, const std::vector<int64_t>& v);
  NodeRef& String(const std::string& name, const std::string& v);
  NodeRef& Tensor(const std::string& name, const ::onnx::TensorProto& t);
  NodeRef& Name(const std::string& name);
  ::onnx::NodeProto* proto() { return node_; }

 private:
  ::onnx::NodeProto* node_;
};

class ModelBuilder {
 public:
  explicit ModelBuilder(int64_t opset = 13);

  // dims: a number, a symbol ("batch") or "?" (no size given). elem_type: ONNX DataType.
  void Input(const std::string& name, const std::vector<std::string>& dims,
             int32_t elem_type = ::onnx::TensorProto::FLOAT);
  void Output(const std::string& name, const std::vector<std::string>& dims = {},
              int32_t elem_type = ::onnx::TensorProto::FLOAT);
  void ValueInfo(const std::string& name, const std::vector<std::string>& dims,
                 int32_t elem_type = ::onnx::TensorProto::FLOAT);
  ::onnx::TensorProto* Initializer(const std::string& name, const std::vector<int64_t>& dims,
                                   const std::vector<float>& values);
  ::onnx::TensorProto* InitializerI64(const std::string& name, const std::vector<int64_t>& dims,
                                      const std::vector<int64_t>& values);
  NodeRef Node(const std::string& op_type, const std::vector<std::string>& inputs,
               const std::vector<std::string>& outputs, const std::string& name = "");

  ::onnx::ModelProto& model() { return model_; }
  ::onnx::GraphProto& graph() { return *model_.mutable_graph(); }
  std::string Bytes() const;

 private:
  ::onnx::ModelProto model_;
};

// A float TensorProto (raw_data) for Constant values and initializers.
::onnx::TensorProto FloatTensor(const std::vector<int64_t>& dims, const std::vector<float>& values);

// x[1,3,8,8] -> Conv(w[4,3,3,3], b[4], pads 1) -> Relu -> y: the base of many error tests.
ModelBuilder ConvReluModel(int64_t opset = 13);

}  // namespace npu::compiler::onnx_test
