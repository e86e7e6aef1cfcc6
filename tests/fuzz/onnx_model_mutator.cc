// The targeted ONNX mutations. Each picks its object uniformly among those the model has and
// falls back to a generic mutation when the model has none.
#include "tests/fuzz/onnx_model_mutator.h"

#include <string>
#include <vector>

#include "compiler/onnx/op_support.h"

namespace npu::fuzz {
namespace {

namespace pb = ::onnx;

constexpr uint64_t kGenericOneIn = 6;

// Attribute names import reads (the rest are ignored, so adding them finds nothing).
constexpr const char* kAttributeNames[] = {
    "kernel_shape", "strides", "pads",  "dilations", "group", "axis",      "axes",
    "perm",         "alpha",   "beta",  "epsilon",   "mode",  "auto_pad",  "keepdims",
    "transA",       "transB",  "split", "to",        "value", "ceil_mode", "output_padding"};

// A size for a dimension: mostly small (shapes that still make sense), sometimes absurd.
int64_t InterestingDim(ProtoMutator& mutator, int64_t current) {
  constexpr int64_t kSmall[] = {0, 1, 2, 3, 4, 7, 16, 64};
  if (mutator.OneIn(2)) return kSmall[mutator.Below(std::size(kSmall))];
  return mutator.InterestingInt(current);
}

std::vector<pb::TensorShapeProto*> Shapes(pb::GraphProto& g) {
  std::vector<pb::TensorShapeProto*> shapes;
  for (auto* infos : {g.mutable_input(), g.mutable_output(), g.mutable_value_info()}) {
    for (pb::ValueInfoProto& vi : *infos) {
      if (vi.type().has_tensor_type()) {
        shapes.push_back(vi.mutable_type()->mutable_tensor_type()->mutable_shape());
      }
    }
  }
  return shapes;
}

// Initializers and the tensors of Constant nodes.
std::vector<pb::TensorProto*> Tensors(pb::GraphProto& g) {
  std::vector<pb::TensorProto*> tensors;
  for (pb::TensorProto& t : *g.mutable_initializer()) tensors.push_back(&t);
  for (pb::NodeProto& n : *g.mutable_node()) {
    for (pb::AttributeProto& a : *n.mutable_attribute()) {
      if (a.has_t()) tensors.push_back(a.mutable_t());
    }
  }
  return tensors;
}

// Every tensor name a node input could refer to.
std::vector<std::string> TensorNames(const pb::GraphProto& g) {
  std::vector<std::string> names;
  for (const pb::ValueInfoProto& vi : g.input()) names.push_back(vi.name());
  for (const pb::TensorProto& t : g.initializer()) names.push_back(t.name());
  for (const pb::NodeProto& n : g.node())
    names.insert(names.end(), n.output().begin(), n.output().end());
  return names;
}

template <class T>
T* Pick(std::vector<T*>& items, ProtoMutator& mutator) {
  return items.empty() ? nullptr : items[mutator.Below(items.size())];
}

bool MutateDim(pb::GraphProto& g, ProtoMutator& mutator) {
  std::vector<pb::TensorShapeProto*> shapes = Shapes(g);
  pb::TensorShapeProto* shape = Pick(shapes, mutator);
  if (shape == nullptr) return false;
  if (shape->dim_size() == 0 || mutator.OneIn(6)) {
    shape->add_dim()->set_dim_value(InterestingDim(mutator, 1));
    return true;
  }
  pb::TensorShapeProto_Dimension& dim = *shape->mutable_dim(mutator.Below(shape->dim_size()));
  switch (mutator.Below(6)) {
    case 0:
      dim.set_dim_param(mutator.OneIn(2) ? "N" : "batch");
      break;
    case 1:
      dim.Clear();
      break;
    case 2:
      shape->mutable_dim()->RemoveLast();
      break;
    default:
      dim.set_dim_value(InterestingDim(mutator, dim.dim_value()));
      break;
  }
  return true;
}

bool MutateTensor(pb::GraphProto& g, ProtoMutator& mutator) {
  std::vector<pb::TensorProto*> tensors = Tensors(g);
  pb::TensorProto* t = Pick(tensors, mutator);
  if (t == nullptr) return false;
  switch (mutator.Below(6)) {
    case 0:
      t->add_dims(InterestingDim(mutator, 1));
      break;
    case 1:
      if (t->dims_size() > 0) t->mutable_dims()->RemoveLast();
      break;
    case 2:  // raw data cut short or grown
      t->mutable_raw_data()->resize(mutator.Below(t->raw_data().size() + 64));
      break;
    case 3:
      t->set_data_type(static_cast<int32_t>(mutator.Below(17)));
      break;
    default:
      if (t->dims_size() > 0) {
        const int i = static_cast<int>(mutator.Below(t->dims_size()));
        t->set_dims(i, InterestingDim(mutator, t->dims(i)));
      }
      break;
  }
  return true;
}

void SetAttributeValue(pb::AttributeProto& a, ProtoMutator& mutator) {
  switch (a.type()) {
    case pb::AttributeProto::INT:
      a.set_i(InterestingDim(mutator, a.i()));
      return;
    case pb::AttributeProto::FLOAT:
      a.set_f(mutator.InterestingFloat(a.f()));
      return;
    case pb::AttributeProto::STRING:
      a.set_s(mutator.InterestingString(a.s()));
      return;
    case pb::AttributeProto::INTS:
      if (a.ints_size() == 0 || mutator.OneIn(4)) {
        a.add_ints(InterestingDim(mutator, 1));
      } else if (mutator.OneIn(4)) {
        a.mutable_ints()->RemoveLast();
      } else {
        const int i = static_cast<int>(mutator.Below(a.ints_size()));
        a.set_ints(i, InterestingDim(mutator, a.ints(i)));
      }
      return;
    default:
      return;
  }
}

bool MutateAttribute(pb::GraphProto& g, ProtoMutator& mutator) {
  if (g.node_size() == 0) return false;
  pb::NodeProto& node = *g.mutable_node(mutator.Below(g.node_size()));
  if (node.attribute_size() > 0 && !mutator.OneIn(4)) {
    const int i = static_cast<int>(mutator.Below(node.attribute_size()));
    if (mutator.OneIn(5)) {
      node.mutable_attribute()->DeleteSubrange(i, 1);
    } else {
      SetAttributeValue(*node.mutable_attribute(i), mutator);
    }
    return true;
  }
  pb::AttributeProto& a = *node.add_attribute();
  a.set_name(kAttributeNames[mutator.Below(std::size(kAttributeNames))]);
  a.set_type(mutator.OneIn(2) ? pb::AttributeProto::INT : pb::AttributeProto::INTS);
  SetAttributeValue(a, mutator);
  return true;
}

bool RewireInput(pb::GraphProto& g, ProtoMutator& mutator) {
  const std::vector<std::string> names = TensorNames(g);
  if (g.node_size() == 0 || names.empty()) return false;
  pb::NodeProto& node = *g.mutable_node(mutator.Below(g.node_size()));
  const std::string& name = names[mutator.Below(names.size())];
  switch (node.input_size() == 0 ? 0 : mutator.Below(5)) {
    case 0:
      node.add_input(name);
      break;
    case 1:
      node.mutable_input()->RemoveLast();
      break;
    case 2:
      node.set_input(mutator.Below(node.input_size()), "");
      break;  // optional input left out
    default:
      node.set_input(mutator.Below(node.input_size()), name);
      break;
  }
  return true;
}

bool ChangeOpType(pb::GraphProto& g, ProtoMutator& mutator) {
  static const std::vector<std::string_view> kOpTypes = compiler::onnx_detail::SupportedOpTypes();
  if (g.node_size() == 0) return false;
  g.mutable_node(mutator.Below(g.node_size()))
      ->set_op_type(std::string(kOpTypes[mutator.Below(kOpTypes.size())]));
  return true;
}

}  // namespace

void MutateOnnxModel(pb::ModelProto& model, ProtoMutator& mutator) {
  pb::GraphProto& g = *model.mutable_graph();
  bool changed = false;
  switch (mutator.Below(kGenericOneIn)) {
    case 0:
      changed = MutateDim(g, mutator);
      break;
    case 1:
      changed = MutateTensor(g, mutator);
      break;
    case 2:
      changed = MutateAttribute(g, mutator);
      break;
    case 3:
      changed = RewireInput(g, mutator);
      break;
    case 4:
      changed = ChangeOpType(g, mutator);
      break;
    default:
      break;
  }
  if (!changed) mutator.Mutate(model);
}

}  // namespace npu::fuzz
