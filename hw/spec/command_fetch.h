// The command processor's fetch and dispatch rule, for both drivers (hw/cmdproc and the compiler's
// replay): the stream is read from DRAM in batches of cmd.fetch_batch instructions, one DRAM read
// per batch, the next batch asked for only when every instruction of this one has been
// dispatched; instructions are dispatched in stream order, each to its queue, waiting while that
// queue holds cmd.queue_depth instructions its unit has not taken.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::spec {

struct FetchBatch {
  uint64_t first = 0;  // instruction index
  uint64_t count = 0;
  uint64_t offset() const { return first * kInsnBytes; }  // from the instruction section
  uint64_t bytes() const { return count * kInsnBytes; }
};

// The batch that starts at instruction `first` of a stream of `total`.
inline FetchBatch FetchBatchAt(const NpuConfig& config, uint64_t first, uint64_t total) {
  return {first, std::min<uint64_t>(config.cmd().fetch_batch(), total - first)};
}

// Whether a queue holding `queued` instructions its unit has not taken accepts one more.
inline bool QueueAccepts(const NpuConfig& config, size_t queued) {
  return queued < config.cmd().queue_depth();
}

}  // namespace npu::spec
