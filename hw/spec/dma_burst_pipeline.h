// One DMA channel's bursts as a timing rule, in cycles: one pipeline, two drivers. hw/dma runs it
// for every descriptor the SystemC model moves; the compiler's event replay (compiler/cost) runs
// the same pipeline against its own memories. The rule: up to dma.outstanding_bursts bursts in
// flight, issued in order; a LOAD asks DRAM at once and, when the oldest burst's data arrives,
// writes it to SRAM and issues more; a STORE reads each burst from SRAM, asks DRAM when that read
// is done, and issues more as the oldest write completes. A LOAD is done when its last SRAM write
// is, a STORE when its last DRAM write is.
//
//   DmaBurstPipeline p(load, bursts.size(), outstanding);
//   uint64_t wake = p.Start(now, memories);
//   while (!p.done()) { /* advance time to `wake` */ wake = p.Advance(wake, memories); }
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

namespace npu::spec {

class DmaBurstPipeline {
 public:
  // How the pipeline reaches the memories: each call makes burst `index`'s access at cycle `at`
  // and returns the cycle it is done (a DRAM read's data has arrived, a write is complete, an
  // SRAM access has left its banks). The SystemC driver moves the bytes there too.
  class Memories {
   public:
    virtual ~Memories() = default;
    virtual uint64_t Dram(size_t index, uint64_t at) = 0;
    virtual uint64_t Sram(size_t index, uint64_t at) = 0;
  };

  DmaBurstPipeline(bool load, size_t bursts, size_t outstanding)
      : load_(load), bursts_(bursts), outstanding_(outstanding) {}

  // Issues the first bursts at cycle `now`; returns the cycle to Advance at.
  uint64_t Start(uint64_t now, Memories& m);
  // At `now`, the cycle the last call returned: retires the oldest burst (a LOAD writes it to
  // SRAM) and issues more. Returns the cycle to Advance at next; done() once finished.
  uint64_t Advance(uint64_t now, Memories& m);
  bool done() const { return done_; }

 private:
  struct InFlight {
    uint64_t ready;  // LOAD: data arrived; STORE: DRAM write complete
    size_t index;
  };
  void Issue(uint64_t now, Memories& m);
  uint64_t NextWake(uint64_t now);

  bool load_;
  size_t bursts_, outstanding_;
  size_t next_ = 0;
  std::deque<InFlight> in_flight_;
  uint64_t written_ = 0;  // LOAD: when the last SRAM write is done
  bool done_ = false;
};

}  // namespace npu::spec
