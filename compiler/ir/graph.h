// The graph IR: a DAG of operations (Node) over named tensors (Tensor) with static shapes, an
// element type, a layout, optional constant data and optional quantisation parameters. Every
// compiler stage from import to lowering works on it; docs/ir.md describes the ops.
//
// Ownership: the Graph owns nodes and tensors; pointers stay valid until erased. Tensor names are
// unique (SSA, as in ONNX). Users and producers are maintained by the Graph's mutators, so always
// rewire through them (SetNodeInput, ReplaceAllUsesWith, EraseNode), never by hand.
#pragma once

#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "compiler/ir/attributes.h"
#include "compiler/ir/op_kind.h"
#include "compiler/ir/types.h"
#include "hw/spec/status.h"

namespace npu::compiler::ir {

class Graph;
class Node;

template <class T>
constexpr DType DTypeOf() {
  if constexpr (std::is_same_v<T, float>) return DType::kFloat32;
  if constexpr (std::is_same_v<T, int8_t>) return DType::kInt8;
  if constexpr (std::is_same_v<T, uint8_t>) return DType::kUInt8;
  if constexpr (std::is_same_v<T, int32_t>) return DType::kInt32;
  if constexpr (std::is_same_v<T, int64_t>) return DType::kInt64;
  if constexpr (std::is_same_v<T, uint16_t>) return DType::kFloat16;  // FP16 bits
  return DType::kUnknown;
}

class Tensor {
 public:
  const std::string& name() const { return name_; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  Layout layout() const { return layout_; }
  void set_dtype(DType d) { dtype_ = d; }
  void set_shape(Shape s) { shape_ = std::move(s); }
  void set_layout(Layout l) { layout_ = l; }
  QuantParams& quant() { return quant_; }
  const QuantParams& quant() const { return quant_; }

  Node* producer() const { return producer_; }  // null for graph inputs and constants
  int producer_index() const { return producer_index_; }
  const std::vector<Node*>& users() const { return users_; }  // one entry per use
  bool is_constant() const { return data_ != nullptr; }

  // Constant data in the tensor's element type (little-endian host).
  const std::vector<uint8_t>& bytes() const { return *data_; }
  template <class T>
  std::span<const T> data() const {
    NPU_CHECK(data_ != nullptr && DTypeOf<T>() == dtype_);
    return {reinterpret_cast<const T*>(data_->data()), data_->size() / sizeof(T)};
  }
  // Makes the tensor a constant holding `values` (shape unchanged: set it to match).
  template <class T>
  void set_data(const std::vector<T>& values) {
    auto bytes = std::make_shared<std::vector<uint8_t>>(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(bytes->data(), values.data(), bytes->size());
    dtype_ = DTypeOf<T>();
    data_ = std::move(bytes);
  }
  void set_bytes(DType dtype, std::vector<uint8_t> bytes) {
    dtype_ = dtype;
    data_ = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  }

 private:
  friend class Graph;
  std::string name_;
  DType dtype_ = DType::kUnknown;
  Shape shape_;
  Layout layout_ = Layout::kNone;
  QuantParams quant_;
  std::shared_ptr<const std::vector<uint8_t>> data_;  // shared by clones: constants are immutable
  Node* producer_ = nullptr;
  int producer_index_ = -1;
  std::vector<Node*> users_;
};

class Node {
 public:
  OpKind kind() const { return kind_; }
  void set_kind(OpKind kind) { kind_ = kind; }
  const std::string& name() const { return name_; }
  size_t num_inputs() const { return inputs_.size(); }
  Tensor* input(size_t i) const { return i < inputs_.size() ? inputs_[i] : nullptr; }
  const std::vector<Tensor*>& inputs() const { return inputs_; }  // null: omitted optional input
  size_t num_outputs() const { return outputs_.size(); }
  Tensor* output(size_t i = 0) const { return outputs_.at(i); }
  const std::vector<Tensor*>& outputs() const { return outputs_; }
  Attributes& attrs() { return attrs_; }
  const Attributes& attrs() const { return attrs_; }

 private:
  friend class Graph;
  OpKind kind_;
  std::string name_;
  std::vector<Tensor*> inputs_;
  std::vector<Tensor*> outputs_;
  Attributes attrs_;
};

class Graph {
 public:
  explicit Graph(std::string name = "graph") : name_(std::move(name)) {}
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;
  Graph Clone() const;  // deep copy; constant data is shared (immutable)

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  // Builders. Names must be unused (UniqueName() makes one).
  Tensor* AddInput(const std::string& name, DType dtype, Shape shape, Layout layout);
  template <class T>
  Tensor* AddConstant(const std::string& name, Shape shape, const std::vector<T>& values) {
    Tensor* t = NewTensor(name);
    t->set_shape(std::move(shape));
    t->set_data(values);
    return t;
  }
  // A node with new output tensors named `outputs` (types left for shape inference).
  Node* AddNode(OpKind kind, const std::string& name, std::vector<Tensor*> inputs,
                const std::vector<std::string>& outputs, Attributes attrs = {});
  void AddOutput(Tensor* t) { outputs_.push_back(t); }
  void SetOutput(size_t index, Tensor* t) { outputs_.at(index) = t; }  // keeps the other readers

  // Rewiring.
  void SetNodeInput(Node* node, size_t index, Tensor* tensor);  // grows the input list if needed
  void ReplaceAllUsesWith(Tensor* from, Tensor* to);            // graph outputs included
  void EraseNode(Node* node);    // its outputs must be unused and not graph outputs
  size_t RemoveUnusedTensors();  // tensors with no producer, no users, not a graph input/output
  // Gives `t` the unused name `name`: passes that replace a graph output keep the user's name.
  void RenameTensor(Tensor* t, const std::string& name);

  // Queries. nodes() is in topological order as long as nodes are added after their inputs'
  // producers; after a rewrite that breaks that, call SortTopologically().
  std::vector<Node*> nodes() const;
  std::vector<Node*> NodesOfKind(OpKind kind) const;  // a snapshot: erasing while iterating is safe
  std::vector<Tensor*> tensors() const;
  const std::vector<Tensor*>& inputs() const { return inputs_; }
  const std::vector<Tensor*>& outputs() const { return outputs_; }
  Tensor* FindTensor(std::string_view name) const;
  std::string UniqueName(std::string_view base) const;
  bool IsGraphOutput(const Tensor* t) const;
  Status SortTopologically();  // fails naming a node on a cycle

 private:
  Tensor* NewTensor(const std::string& name);
  void AddUse(Tensor* t, Node* user);
  void RemoveUse(Tensor* t, Node* user);

  std::string name_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Tensor>> tensors_;
  std::map<std::string, Tensor*, std::less<>> by_name_;
  std::vector<Tensor*> inputs_;
  std::vector<Tensor*> outputs_;
};

}  // namespace npu::compiler::ir
