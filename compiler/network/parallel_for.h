// Runs body(0) .. body(n - 1) on up to the machine's hardware threads (the caller's among them),
// each index exactly once, in no particular order; returns when all are done. For the searches
// that compile or measure many independent candidates (mixed_precision.h, tuning.h): each body
// writes only its own slot of a result vector, so results do not depend on the schedule.
#pragma once

#include <cstddef>
#include <functional>

namespace npu::compiler {

void ParallelFor(size_t n, const std::function<void(size_t)>& body);

}  // namespace npu::compiler
