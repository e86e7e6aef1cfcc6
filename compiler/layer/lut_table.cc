// Building lookup tables.
#include "compiler/layer/lut_table.h"

#include <algorithm>
#include <cmath>

#include "hw/spec/isa.h"

namespace npu::compiler {

std::vector<int8_t> BuildLutTable(const std::function<double(double)>& f,
                                  const LutQuantisation& q) {
  const double lo = std::max(q.clamp_min, -128), hi = std::min(q.clamp_max, 127);
  std::vector<int8_t> table(spec::kLutEntries);
  for (int k = 0; k < int(spec::kLutEntries); ++k) {
    const double x = double(q.input_scale) * (k - 128 - q.input_zero_point);
    const double y = f(x) / double(q.output_scale);
    double v = q.output_zero_point;
    if (std::isinf(y)) {
      v = y > 0 ? hi : lo;
    } else if (!std::isnan(y)) {
      v = std::clamp(std::round(y) + q.output_zero_point, lo, hi);
    }
    table[k] = static_cast<int8_t>(std::clamp(v, lo, hi));
  }
  return table;
}

namespace unary {

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double Tanh(double x) { return std::tanh(x); }
double Silu(double x) { return x * Sigmoid(x); }
double HardSigmoid(double x) { return std::clamp(x / 6.0 + 0.5, 0.0, 1.0); }
double HardSwish(double x) { return x * HardSigmoid(x); }
double Gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

}  // namespace unary
}  // namespace npu::compiler
