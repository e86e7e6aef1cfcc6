// Lookup tables from unary functions: what LUT (and ACT's table) apply to a quantised tensor.
//
//   LutQuantisation q{in_scale, in_zp, out_scale, out_zp};
//   std::vector<int8_t> sigmoid = BuildLutTable(unary::Sigmoid, q);
//
// Entry k is the output for the int8 input x = k - 128:
//   clamp(round(f(in_scale * (x - in_zp)) / out_scale) + out_zp, clamp_min, clamp_max)
// with round half away from zero; +-infinity clamps, NaN gives out_zp. A conv whose output
// feeds such a function takes the conv's output quantisation as the input here (ConvLayer::table).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace npu::compiler {

struct LutQuantisation {
  float input_scale = 1.0f;
  int32_t input_zero_point = 0;
  float output_scale = 1.0f;
  int32_t output_zero_point = 0;
  int32_t clamp_min = -128, clamp_max = 127;
};

std::vector<int8_t> BuildLutTable(const std::function<double(double)>& f,
                                  const LutQuantisation& quantisation);

// Common activations, in floating point.
namespace unary {
double Sigmoid(double x);
double Tanh(double x);
double Silu(double x);         // x * sigmoid(x), a.k.a. swish
double HardSigmoid(double x);  // clamp(x / 6 + 0.5, 0, 1)
double HardSwish(double x);    // x * HardSigmoid(x)
double Gelu(double x);         // x * Phi(x), the exact (erf) form
}  // namespace unary

}  // namespace npu::compiler
