// What CONV, ACT, POOL and ELTWISE compute with their fp16 flag (docs/isa.md, docs/fp16-semantics.md):
// the FP16 halves of ComputeConv, ComputeAct, ComputePool and ComputeEltwise (semantics.h), which
// call these. Operands are the same byte spans, two bytes an FP16 element, little-endian (but
// ELTWISE's output with int8_out: one int8 byte an element); the accumulator's int32 entries hold
// FP32 bit patterns. Internal to hw/spec.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "hw/spec/isa.h"

namespace npu::spec {

void ComputeConvFp16(const ConvArgs& conv, std::span<const int8_t> input,
                     std::span<const int8_t> weights, std::span<int32_t> acc);
void ComputeActFp16(const ActArgs& act, std::span<const int32_t> acc,
                    std::span<const uint8_t> params, std::vector<int8_t>& out);
void ComputePoolFp16(const PoolArgs& pool, std::span<const int8_t> input,
                     std::vector<int8_t>& out);
void ComputeEltwiseFp16(const EltwiseArgs& eltwise, std::span<const int8_t> a,
                        std::span<const int8_t> b, std::vector<int8_t>& out);

}  // namespace npu::spec
