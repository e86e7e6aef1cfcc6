// The dependency pass on hand-built streams, its completeness on compiled streams (every
// cross-queue conflict is ordered by tokens), and its speed on a long stream.
#include "compiler/schedule/dependencies.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>

#include "compiler/compile.h"
#include "compiler/schedule/interval_map.h"
#include "compiler/schedule/token_check.h"
#include "hw/spec/config.h"
#include "hw/spec/footprint.h"
#include "tests/compiler/hand_insns.h"
#include "workloads/synthetic_conv.h"

namespace npu::compiler {
namespace {

using testing::Act;
using testing::Conv;
using testing::Load;
using testing::Store;

constexpr uint8_t kL = 1, kC = 2, kV = 4, kS = 8;

TEST(LatestAccessMap, AssignOverwritesAndQueriesTheMaximum) {
  LatestAccessMap map;
  map.Assign(0, 100, 1);
  map.Assign(40, 60, 2);
  EXPECT_EQ(map.MaxIn(0, 40), 1);
  EXPECT_EQ(map.MaxIn(59, 61), 2);
  EXPECT_EQ(map.MaxIn(100, 200), -1);
  map.Assign(0, 200, 3);
  EXPECT_EQ(map.MaxIn(50, 51), 3);
  EXPECT_EQ(map.segments(), 1u);
}

TEST(Dependencies, ReadAfterWriteLoadToConv) {
  std::vector<spec::Instruction> s = {Load(0, 16), Load(100, 16), Conv(0, 16, 100, 0)};
  AssignDependencies(s);
  EXPECT_EQ(s[0].signal_mask, 0);  // the later load covers it: the load queue retires in order
  EXPECT_EQ(s[1].signal_mask, kC);
  EXPECT_EQ(s[2].wait_mask, kL);
  EXPECT_TRUE(CheckTokenProtocol(s).ok());
}

TEST(Dependencies, WriteAfterReadConvToLoadForDoubleBuffering) {
  // Two input slots (0 and 64): the third load reuses slot 0, so it waits for the first CONV.
  std::vector<spec::Instruction> s = {Load(0, 16),  Conv(0, 16, 200, 0),
                                      Load(64, 16), Conv(64, 16, 200, 0, true),
                                      Load(0, 16),  Conv(0, 16, 200, 0, true)};
  s.insert(s.begin(), Load(200, 16));
  AssignDependencies(s);
  EXPECT_EQ(s[2].signal_mask, kL);  // first CONV releases slot 0
  EXPECT_EQ(s[5].wait_mask, kC);    // the load into slot 0 again
  EXPECT_EQ(s[3].wait_mask, 0);     // slot 64 was never read before
  EXPECT_EQ(s[4].wait_mask, kL);
  EXPECT_TRUE(CheckTokenProtocol(s).ok());
}

TEST(Dependencies, TransitiveOrderNeedsNoExtraToken) {
  // ACT reads what the load wrote (params) and what the CONV wrote (acc); the CONV already
  // waited for the load, so ACT only needs the CONV's token.
  std::vector<spec::Instruction> s = {Load(0, 32), Conv(0, 4, 8, 0), Act(0, 16, 300)};
  AssignDependencies(s);
  EXPECT_EQ(s[2].wait_mask, kC);
  EXPECT_EQ(s[0].signal_mask, kC);
  EXPECT_TRUE(CheckTokenProtocol(s).ok());
}

TEST(Dependencies, SameQueueAndDisjointAccessesNeedNoTokens) {
  std::vector<spec::Instruction> s = {Load(0, 16), Load(0, 16), Conv(100, 4, 200, 0),
                                      Store(400, 8)};
  AssignDependencies(s);
  for (const spec::Instruction& insn : s) {
    EXPECT_EQ(insn.wait_mask | insn.signal_mask, 0) << spec::Disassemble(insn);
  }
}

TEST(Dependencies, StoreWaitsForActAndActForTheStoreOfItsBuffer) {
  std::vector<spec::Instruction> s = {Act(0, 16, 300), Store(300, 1), Act(0, 16, 300),
                                      Store(300, 1)};
  AssignDependencies(s);
  EXPECT_EQ(s[0].signal_mask, kS);
  EXPECT_EQ(s[1].wait_mask, kV);
  EXPECT_EQ(s[1].signal_mask, kV);
  EXPECT_EQ(s[2].wait_mask, kS);
  EXPECT_TRUE(CheckTokenProtocol(s).ok());
}

// Brute force: instruction j happens before i if a chain of same-queue order (completion for
// compute/vector; start for the DMA queues) and matched tokens leads from j to i.
void ExpectEveryConflictOrdered(const std::vector<spec::Instruction>& s) {
  const size_t n = s.size();
  using Clock = std::array<int64_t, 4>;
  std::vector<Clock> known(n);
  std::array<std::vector<size_t>, 16> signals;  // [src*4+dst]: signalling instructions in order
  std::array<size_t, 16> taken{};
  std::array<Clock, 4> queue_known;
  for (auto& c : queue_known) c.fill(-1);
  for (size_t i = 0; i < n; ++i) {
    const int q = static_cast<int>(s[i].queue());
    Clock k = queue_known[q];
    for (int p = 0; p < 4; ++p) {
      if (!(s[i].wait_mask >> p & 1)) continue;
      const size_t j = signals[p * 4 + q].at(taken[p * 4 + q]++);
      for (int r = 0; r < 4; ++r) k[r] = std::max(k[r], known[j][r]);
      k[p] = std::max<int64_t>(k[p], static_cast<int64_t>(j));
    }
    known[i] = k;
    queue_known[q] = k;
    if (q == 1 || q == 2) queue_known[q][q] = static_cast<int64_t>(i);
    for (int p = 0; p < 4; ++p) {
      if (s[i].signal_mask >> p & 1) signals[q * 4 + p].push_back(i);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < i; ++j) {
      const int p = static_cast<int>(s[j].queue());
      if (p == static_cast<int>(s[i].queue())) continue;
      if (!spec::Conflicts(spec::Footprints(s[j]), spec::Footprints(s[i]))) continue;
      ASSERT_GE(known[i][p], static_cast<int64_t>(j)) << "#" << j << " -> #" << i;
    }
  }
}

TEST(Dependencies, CompiledStreamsOrderEveryConflict) {
  const spec::NpuConfig config = *spec::ResolveConfig(
      "", {"mac.rows=4", "mac.cols=4", "sram.size_bytes=2048", "sram.banks=1"});
  workloads::SyntheticConvSpec spec;
  spec.in_h = 6, spec.in_w = 7, spec.in_c = 12, spec.out_c = 10, spec.kernel_h = spec.kernel_w = 3;
  workloads::SetSamePadding(spec);
  const StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(spec);
  ASSERT_TRUE(layer.ok());
  for (LoopOrder order : {LoopOrder::kSpatialOuter, LoopOrder::kChannelOuter}) {
    const StatusOr<CompiledLayer> c =
        CompileConvLayerDetailed(config, *layer, {ConvTiling{2, 3, 4, 5, order}});
    ASSERT_TRUE(c.ok()) << c.status().message();
    ASSERT_GT(c->instructions.size(), 100u);
    ExpectEveryConflictOrdered(c->instructions);
  }
}

TEST(Dependencies, HundredThousandInstructionsInWellUnderASecond) {
  // A double-buffered pipeline: load, conv, act, store per step, rotating two slots each.
  std::vector<spec::Instruction> s;
  for (uint32_t i = 0; i < 25000; ++i) {
    const uint32_t slot = i % 2;
    s.push_back(Load(slot * 64, 64, i * 64));
    s.push_back(Conv(slot * 64, 64, 512, slot * 4));
    s.push_back(Act(slot * 4, 1024, 2048 + slot * 16));
    s.push_back(Store(2048 + slot * 16, 1, (1 << 24) + i));
  }
  const auto start = std::chrono::steady_clock::now();
  AssignDependencies(s);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 1.0);
  EXPECT_TRUE(CheckTokenProtocol(s).ok());
  EXPECT_EQ(s[4].wait_mask, 0);   // slot 1's first load waits for nothing
  EXPECT_EQ(s[8].wait_mask, kC);  // slot 0 again: after the first CONV read it
}

}  // namespace
}  // namespace npu::compiler
