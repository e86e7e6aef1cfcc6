// A model's identity as a number: CRC-64 of the graph's text (ops, attributes, types, names:
// printer.h) and of its constants' bytes. Equal graphs give equal fingerprints, in every run;
// report provenance uses it to say which model a result belongs to.
#pragma once

#include <cstdint>

#include "compiler/ir/graph.h"

namespace npu::compiler::ir {

uint64_t GraphFingerprint(const Graph& graph);

}  // namespace npu::compiler::ir
