// The integer kernels of the quantised IR's tensor ops (docs/quantized-ir.md), over row-major
// int8 buffers of any rank: lookup tables, broadcasting binary ops, data movement, softmax,
// layer normalisation, reductions, matmul. Internal to compiler/qinterp; the interpreter calls
// RunTensorKernel only on nodes the checker accepted.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/ir/graph.h"

namespace npu::compiler::qinterp {

// `in`: each input's values (constants' data included), in input order; `y` is sized to the
// output. False if `n` is not a tensor op.
bool RunTensorKernel(const ir::Node& n, const std::vector<std::span<const int8_t>>& in,
                     std::vector<int8_t>& y);

// norm_kernels.cc
void SoftmaxKernel(const ir::Node& n, std::span<const int8_t> x, std::vector<int8_t>& y);
void LayerNormKernel(const ir::Node& n, std::span<const int8_t> x, std::vector<int8_t>& y);
void ReduceKernel(const ir::Node& n, std::span<const int8_t> x, std::vector<int8_t>& y);
void MatMulKernel(const ir::Node& n, std::span<const int8_t> a, std::span<const int8_t> b,
                  std::vector<int8_t>& y);

}  // namespace npu::compiler::qinterp
