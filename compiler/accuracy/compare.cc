// CompareAccuracy: both interpreters over every sample, metrics per output and per layer.
//   1. Pair the graphs: inputs and outputs by position, layers by tensor name.
//   2. Per sample: run the float graph keeping the paired tensors' values; quantise the inputs;
//      run the integer graph, dequantising each paired tensor as it is computed and comparing
//      it (in the float tensor's order) with the float value.
//   3. Summarise.
#include <fmt/format.h>

#include <cmath>
#include <unordered_map>

#include "compiler/accuracy/accuracy.h"
#include "compiler/accuracy/metrics.h"
#include "compiler/interp/interpreter.h"
#include "compiler/qinterp/host_io.h"
#include "compiler/qinterp/qinterp.h"

namespace npu::compiler::accuracy {
namespace {

using interp::HostTensor;

struct Layer {
  LayerAccuracy info;
  ir::Shape float_shape;
  ErrorStats stats;
  int64_t clipped = 0, total = 0;
};

Metrics MetricsOf(const ErrorStats& s) {
  return {s.Cosine(), s.MinSampleCosine(), s.SnrDb(), s.MaxAbsError()};
}

class Comparison {
 public:
  Comparison(const ir::Graph& f, const ir::Graph& q) : f_(f), q_(q) {}

  Status Pair() {
    if (f_.inputs().size() != q_.inputs().size() || f_.outputs().size() != q_.outputs().size()) {
      return InvalidArgument(fmt::format(
          "the float graph has {} inputs and {} outputs, the quantised graph {} and {}",
          f_.inputs().size(), f_.outputs().size(), q_.inputs().size(), q_.outputs().size()));
    }
    for (const ir::Tensor* t : q_.inputs()) AddLayer(*t, "input");
    for (const ir::Node* n : q_.nodes())
      AddLayer(*n->output(0), std::string(ir::OpName(n->kind())));
    for (const ir::Tensor* t : q_.outputs()) {
      if (!IsFp16(*t) && t->quant().scale.size() != 1) {
        return InvalidArgument(fmt::format("quantised output %{} has no scale", t->name()));
      }
      outputs_.push_back({});
      top1_.emplace_back(1, Step(*t));
      top5_.emplace_back(5);
    }
    return Status::Ok();
  }

  Status AddSample(const std::vector<HostTensor>& inputs) {
    // 2a. Float run, keeping the paired values.
    std::unordered_map<std::string, HostTensor> floats;
    for (size_t i = 0; i < inputs.size(); ++i) floats[f_.inputs()[i]->name()] = inputs[i];
    interp::InterpretOptions fo;
    fo.observe = [&](const ir::Tensor& t, const HostTensor& v) {
      if (index_.count(t.name())) floats[t.name()] = v;
    };
    NPU_ASSIGN_OR_RETURN(const std::vector<HostTensor> f_out, interp::Interpret(f_, inputs, fo));
    // 2b. Integer run, comparing each paired tensor as it appears.
    std::vector<std::vector<int8_t>> q_in;
    for (size_t i = 0; i < inputs.size(); ++i) {
      NPU_ASSIGN_OR_RETURN(std::vector<int8_t> v,
                           qinterp::QuantizeInput(*q_.inputs()[i], inputs[i]));
      CompareLayer(*q_.inputs()[i], v, floats);
      q_in.push_back(std::move(v));
    }
    qinterp::QInterpretOptions qo;
    qo.observe = [&](const ir::Tensor& t, std::span<const int8_t> v) {
      CompareLayer(t, v, floats);
    };
    NPU_ASSIGN_OR_RETURN(const auto q_out, qinterp::InterpretQuantized(q_, q_in, qo));
    // 2c. Outputs.
    for (size_t i = 0; i < q_out.size(); ++i) {
      const HostTensor deq = qinterp::DequantizeOutput(*q_.outputs()[i], q_out[i]);
      NPU_ASSIGN_OR_RETURN(const HostTensor got, qinterp::ToShape(deq, f_out[i].shape));
      if (f_out[i].dtype != ir::DType::kFloat32) {
        return InvalidArgument(fmt::format("float output {} is not float32", i));
      }
      const auto ref = f_out[i].values<float>();
      const auto test = got.values<float>();
      outputs_[i].Add(ref, test);
      top1_[i].Add(ref, test);
      top5_[i].Add(ref, test);
    }
    ++samples_;
    return Status::Ok();
  }

  AccuracyReport Finish() const {
    AccuracyReport r{q_.name(), samples_, {}, {}, {}};
    for (size_t i = 0; i < outputs_.size(); ++i) {
      const ir::Tensor* t = q_.outputs()[i];
      OutputAccuracy o;
      o.name = t->name();
      o.metrics = MetricsOf(outputs_[i]);
      o.scale = Step(*t);
      const int64_t classes = t->shape().size() == 2 ? t->shape()[1] : 0;
      if (classes >= 2) {
        o.top1 = top1_[i].Rate();
        o.near_ties = top1_[i].near_ties();
        o.top1_resolvable = top1_[i].ResolvableRate();
      }
      if (classes >= 5) o.top5 = top5_[i].Rate();
      r.outputs.push_back(o);
    }
    for (const Layer& l : layers_) {
      LayerAccuracy a = l.info;
      a.metrics = MetricsOf(l.stats);
      a.clipped = l.total == 0 ? 0.0 : static_cast<double>(l.clipped) / l.total;
      r.layers.push_back(a);
    }
    return r;
  }

 private:
  void AddLayer(const ir::Tensor& q, const std::string& op) {
    const ir::Tensor* f = f_.FindTensor(q.name());
    if (f == nullptr || f->dtype() != ir::DType::kFloat32) return;
    if (!IsFp16(q) && q.quant().scale.size() != 1) return;
    index_[q.name()] = layers_.size();
    Layer l;
    l.info = {q.name(), op, q.shape(), {}, Step(q), IsFp16(q) ? 0 : q.quant().zero_point[0], 0};
    l.float_shape = f->shape();
    layers_.push_back(std::move(l));
  }

  void CompareLayer(const ir::Tensor& t, std::span<const int8_t> v,
                    const std::unordered_map<std::string, HostTensor>& floats) {
    auto idx = index_.find(t.name());
    auto fv = floats.find(t.name());
    if (idx == index_.end() || fv == floats.end()) return;
    Layer& l = layers_[idx->second];
    StatusOr<HostTensor> deq = qinterp::ToShape(qinterp::DequantizeOutput(t, v), l.float_shape);
    if (!deq.ok() || fv->second.shape != l.float_shape) return;  // not comparable: not reported
    const auto ref = fv->second.values<float>();
    l.stats.Add(ref, deq->values<float>());
    // Values the int8 range cannot hold, by more than half a step (FP16: beyond 65504).
    l.total += static_cast<int64_t>(ref.size());
    if (IsFp16(t)) {
      for (float x : ref) l.clipped += std::fabs(x) > 65520.0f ? 1 : 0;
      return;
    }
    const double s = l.info.scale, zp = l.info.zero_point;
    const double lo = s * (-128 - zp) - s / 2, hi = s * (127 - zp) + s / 2;
    for (float x : ref) l.clipped += (x < lo || x > hi) ? 1 : 0;
  }

  static bool IsFp16(const ir::Tensor& t) { return t.dtype() == ir::DType::kFloat16; }
  // The value step of a tensor: its scale; 0 for FP16 (no fixed step: no near ties).
  static float Step(const ir::Tensor& t) { return IsFp16(t) ? 0.0f : t.quant().scale[0]; }

  const ir::Graph &f_, &q_;
  std::vector<Layer> layers_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<ErrorStats> outputs_;
  std::vector<TopKAgreement> top1_, top5_;
  int64_t samples_ = 0;
};

}  // namespace

StatusOr<AccuracyReport> CompareAccuracy(const ir::Graph& float_graph, const ir::Graph& quant_graph,
                                         const std::vector<std::vector<HostTensor>>& inputs) {
  Comparison c(float_graph, quant_graph);
  NPU_TRY(c.Pair());
  for (size_t s = 0; s < inputs.size(); ++s) {
    NPU_TRY(c.AddSample(inputs[s]).WithContext(fmt::format("accuracy sample {}", s)));
  }
  return c.Finish();
}

}  // namespace npu::compiler::accuracy
