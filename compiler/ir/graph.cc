// Graph construction, rewiring, cloning and ordering.
#include "compiler/ir/graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace npu::compiler::ir {

Tensor* Graph::NewTensor(const std::string& name) {
  NPU_CHECK(by_name_.count(name) == 0);  // SSA: importers and passes make unique names
  tensors_.push_back(std::make_unique<Tensor>());
  Tensor* t = tensors_.back().get();
  t->name_ = name;
  by_name_.emplace(name, t);
  return t;
}

Tensor* Graph::AddInput(const std::string& name, DType dtype, Shape shape, Layout layout) {
  Tensor* t = NewTensor(name);
  t->dtype_ = dtype;
  t->shape_ = std::move(shape);
  t->layout_ = layout;
  inputs_.push_back(t);
  return t;
}

void Graph::AddUse(Tensor* t, Node* user) {
  if (t != nullptr) t->users_.push_back(user);
}

void Graph::RemoveUse(Tensor* t, Node* user) {
  if (t == nullptr) return;
  auto it = std::find(t->users_.begin(), t->users_.end(), user);
  NPU_CHECK(it != t->users_.end());
  t->users_.erase(it);
}

Node* Graph::AddNode(OpKind kind, const std::string& name, std::vector<Tensor*> inputs,
                     const std::vector<std::string>& outputs, Attributes attrs) {
  nodes_.push_back(std::make_unique<Node>());
  Node* n = nodes_.back().get();
  n->kind_ = kind;
  n->name_ = name;
  n->attrs_ = std::move(attrs);
  n->inputs_ = std::move(inputs);
  for (Tensor* t : n->inputs_) AddUse(t, n);
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor* t = NewTensor(outputs[i]);
    t->producer_ = n;
    t->producer_index_ = static_cast<int>(i);
    n->outputs_.push_back(t);
  }
  return n;
}

void Graph::SetNodeInput(Node* node, size_t index, Tensor* tensor) {
  if (index >= node->inputs_.size()) node->inputs_.resize(index + 1, nullptr);
  RemoveUse(node->inputs_[index], node);
  node->inputs_[index] = tensor;
  AddUse(tensor, node);
}

void Graph::ReplaceAllUsesWith(Tensor* from, Tensor* to) {
  if (from == to) return;
  const std::vector<Node*> users = from->users_;
  for (Node* user : users) {
    for (size_t i = 0; i < user->inputs_.size(); ++i) {
      if (user->inputs_[i] == from) SetNodeInput(user, i, to);
    }
  }
  for (Tensor*& out : outputs_) {
    if (out == from) out = to;
  }
}

void Graph::EraseNode(Node* node) {
  for (Tensor* out : node->outputs_) {
    NPU_CHECK(out->users_.empty() && !IsGraphOutput(out));
    out->producer_ = nullptr;  // now a dangling tensor; RemoveUnusedTensors() drops it
  }
  for (Tensor* in : node->inputs_) RemoveUse(in, node);
  auto it =
      std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& p) { return p.get() == node; });
  NPU_CHECK(it != nodes_.end());
  nodes_.erase(it);
}

size_t Graph::RemoveUnusedTensors() {
  const size_t before = tensors_.size();
  std::erase_if(tensors_, [&](const std::unique_ptr<Tensor>& t) {
    const bool unused = t->producer_ == nullptr && t->users_.empty() && !IsGraphOutput(t.get()) &&
                        std::find(inputs_.begin(), inputs_.end(), t.get()) == inputs_.end();
    if (unused) by_name_.erase(t->name_);
    return unused;
  });
  return before - tensors_.size();
}

void Graph::RenameTensor(Tensor* t, const std::string& name) {
  NPU_CHECK(by_name_.count(name) == 0);
  by_name_.erase(t->name_);
  t->name_ = name;
  by_name_.emplace(name, t);
}

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const auto& n : nodes_) out.push_back(n.get());
  return out;
}

std::vector<Node*> Graph::NodesOfKind(OpKind kind) const {
  std::vector<Node*> out;
  for (const auto& n : nodes_) {
    if (n->kind_ == kind) out.push_back(n.get());
  }
  return out;
}

std::vector<Tensor*> Graph::tensors() const {
  std::vector<Tensor*> out;
  out.reserve(tensors_.size());
  for (const auto& t : tensors_) out.push_back(t.get());
  return out;
}

Tensor* Graph::FindTensor(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

std::string Graph::UniqueName(std::string_view base) const {
  if (by_name_.find(base) == by_name_.end()) return std::string(base);
  for (int i = 1;; ++i) {
    std::string name = fmt::format("{}_{}", base, i);
    if (by_name_.find(name) == by_name_.end()) return name;
  }
}

bool Graph::IsGraphOutput(const Tensor* t) const {
  return std::find(outputs_.begin(), outputs_.end(), t) != outputs_.end();
}

Status Graph::SortTopologically() {
  // Kahn's algorithm, stable: sweep in the current order, placing every node whose producers
  // are placed, until a sweep places nothing.
  const size_t n = nodes_.size();
  std::unordered_map<const Node*, size_t> index;
  for (size_t i = 0; i < n; ++i) index[nodes_[i].get()] = i;
  std::vector<int> pending(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (const Tensor* in : nodes_[i]->inputs_) pending[i] += (in && in->producer_ != nullptr);
  }
  std::vector<size_t> order;
  std::vector<bool> placed(n, false);
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < n; ++i) {
      if (placed[i] || pending[i] != 0) continue;
      placed[i] = progress = true;
      order.push_back(i);
      for (const Tensor* out : nodes_[i]->outputs_) {
        for (const Node* user : out->users_) --pending[index.at(user)];
      }
    }
  }
  if (order.size() != n) {
    const size_t stuck = std::find(placed.begin(), placed.end(), false) - placed.begin();
    return InvalidArgument(
        fmt::format("graph '{}' has a cycle through node '{}'", name_, nodes_[stuck]->name_));
  }
  std::vector<std::unique_ptr<Node>> sorted;
  sorted.reserve(n);
  for (size_t i : order) sorted.push_back(std::move(nodes_[i]));
  nodes_ = std::move(sorted);
  return Status::Ok();
}

Graph Graph::Clone() const {
  Graph g(name_);
  std::unordered_map<const Tensor*, Tensor*> map;
  for (const auto& t : tensors_) {
    Tensor* c = g.NewTensor(t->name_);
    c->dtype_ = t->dtype_;
    c->shape_ = t->shape_;
    c->layout_ = t->layout_;
    c->quant_ = t->quant_;
    c->data_ = t->data_;
    map[t.get()] = c;
  }
  auto mapped = [&](const Tensor* t) { return t == nullptr ? nullptr : map.at(t); };
  for (const auto& n : nodes_) {
    g.nodes_.push_back(std::make_unique<Node>());
    Node* c = g.nodes_.back().get();
    c->kind_ = n->kind_;
    c->name_ = n->name_;
    c->attrs_ = n->attrs_;
    for (const Tensor* in : n->inputs_) {
      c->inputs_.push_back(mapped(in));
      g.AddUse(mapped(in), c);
    }
    for (const Tensor* out : n->outputs_) {
      Tensor* o = mapped(out);
      o->producer_ = c;
      o->producer_index_ = out->producer_index_;
      c->outputs_.push_back(o);
    }
  }
  for (const Tensor* t : inputs_) g.inputs_.push_back(mapped(t));
  for (const Tensor* t : outputs_) g.outputs_.push_back(mapped(t));
  return g;
}

}  // namespace npu::compiler::ir
