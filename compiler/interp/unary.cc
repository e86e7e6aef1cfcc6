// Unary float ops, elementwise with ONNX's formulas and attribute defaults: Sigmoid,
// HardSigmoid {alpha 0.2, beta 0.5}, HardSwish, Tanh, Erf, Exp, Log, Sqrt, Reciprocal, Neg, Abs,
// LeakyRelu {alpha 0.01}, Elu {alpha 1}, Softplus. Their type rule is UnaryRule (elementwise.cc):
// the output has the input's type and layout.
#include <cmath>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

template <class F>
void Map(Inputs in, Outputs out, F f) {
  const std::span<const float> x = in[0].values<float>();
  const std::span<float> y = out[0].values<float>();
  for (size_t i = 0; i < x.size(); ++i) y[i] = f(x[i]);
}

}  // namespace

Status UnaryKernel(const ir::Node& node, Inputs in, Outputs out) {
  const ir::Attributes& a = node.attrs();
  using K = ir::OpKind;
  switch (node.kind()) {
    case K::kSigmoid:
      Map(in, out, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
      return Status::Ok();
    case K::kHardSigmoid: {
      const float alpha = a.GetFloat("alpha", 0.2f), beta = a.GetFloat("beta", 0.5f);
      Map(in, out, [=](float x) { return std::max(0.0f, std::min(1.0f, alpha * x + beta)); });
      return Status::Ok();
    }
    case K::kHardSwish:  // x * HardSigmoid(x) with alpha 1/6, beta 0.5, as ONNX defines it
      Map(in, out, [](float x) { return x * std::max(0.0f, std::min(1.0f, x / 6.0f + 0.5f)); });
      return Status::Ok();
    case K::kTanh:
      Map(in, out, [](float x) { return std::tanh(x); });
      return Status::Ok();
    case K::kErf:
      Map(in, out, [](float x) { return std::erf(x); });
      return Status::Ok();
    case K::kExp:
      Map(in, out, [](float x) { return std::exp(x); });
      return Status::Ok();
    case K::kLog:
      Map(in, out, [](float x) { return std::log(x); });
      return Status::Ok();
    case K::kSqrt:
      Map(in, out, [](float x) { return std::sqrt(x); });
      return Status::Ok();
    case K::kReciprocal:
      Map(in, out, [](float x) { return 1.0f / x; });
      return Status::Ok();
    case K::kNeg:
      Map(in, out, [](float x) { return -x; });
      return Status::Ok();
    case K::kAbs:
      Map(in, out, [](float x) { return std::fabs(x); });
      return Status::Ok();
    case K::kLeakyRelu: {
      const float alpha = a.GetFloat("alpha", 0.01f);
      Map(in, out, [=](float x) { return x < 0 ? alpha * x : x; });
      return Status::Ok();
    }
    case K::kElu: {
      const float alpha = a.GetFloat("alpha", 1.0f);
      Map(in, out, [=](float x) { return x < 0 ? alpha * (std::exp(x) - 1.0f) : x; });
      return Status::Ok();
    }
    case K::kSoftplus:  // log(1 + exp(x)) without overflow for large x
      Map(in, out, [](float x) { return x > 20.0f ? x : std::log1p(std::exp(x)); });
      return Status::Ok();
    default:
      return Internal("not a unary op");
  }
}

}  // namespace npu::compiler::interp
