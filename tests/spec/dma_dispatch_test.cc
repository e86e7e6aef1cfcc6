// The DMA dispatch rule, the token counts and the fetch batches both drivers share (issue 11).
#include "hw/spec/dma_dispatch.h"

#include <gtest/gtest.h>

#include "hw/spec/command_fetch.h"
#include "hw/spec/config.h"
#include "hw/spec/token_counts.h"

namespace npu::spec {
namespace {

std::vector<Footprint> SramWrite(uint64_t begin, uint64_t end) {
  return {{Space::kSram, begin, end, /*write=*/true}};
}

TEST(DmaDispatch, StartsOnTheLowestFreeChannel) {
  DmaDispatch d(3);
  EXPECT_EQ(d.Start(10, SramWrite(0, 16)), 0u);
  EXPECT_EQ(d.Start(11, SramWrite(16, 32)), 1u);
  EXPECT_EQ(d.Finish(0), 10u);
  EXPECT_EQ(d.Start(12, SramWrite(32, 48)), 0u);  // channel 0 is free again, before channel 2
  EXPECT_TRUE(d.busy(0));
  EXPECT_TRUE(d.busy(1));
  EXPECT_FALSE(d.busy(2));
}

TEST(DmaDispatch, AnOverlapWithADescriptorStillMovingHoldsIt) {
  DmaDispatch d(4);
  d.Start(1, SramWrite(0, 64));
  EXPECT_EQ(d.Holds(SramWrite(32, 96)), DmaDispatch::Held::kHazard);
  EXPECT_EQ(d.Holds(SramWrite(64, 96)), DmaDispatch::Held::kNo);  // touching, not overlapping
  d.Finish(0);
  // Finished but not retired: its bytes have moved, so the overlap no longer holds anything.
  EXPECT_EQ(d.Holds(SramWrite(32, 96)), DmaDispatch::Held::kNo);
}

TEST(DmaDispatch, EveryChannelBusyHoldsIt) {
  DmaDispatch d(1);
  d.Start(1, SramWrite(0, 16));
  EXPECT_EQ(d.Holds(SramWrite(100, 116)), DmaDispatch::Held::kNoChannel);
}

TEST(DmaDispatch, RetiresInQueueOrderWhateverOrderChannelsFinishIn) {
  DmaDispatch d(2);
  d.Start(7, SramWrite(0, 16));
  d.Start(8, SramWrite(16, 32));
  EXPECT_EQ(d.Finish(1), 8u);  // the younger finishes first
  EXPECT_FALSE(d.Retirable().has_value());
  EXPECT_FALSE(d.Retire().has_value());
  EXPECT_EQ(d.Finish(0), 7u);
  EXPECT_EQ(d.Retire(), 7u);
  EXPECT_EQ(d.Retire(), 8u);
  EXPECT_FALSE(d.Retire().has_value());
  EXPECT_TRUE(d.idle());
}

TEST(DmaDispatch, SameCyclePriorityIsLoadEngineFirstThenHighestNumberedChannelFirst) {
  EXPECT_EQ(kDmaEnginePriority[0], Queue::kLoad);
  EXPECT_EQ(kDmaEnginePriority[1], Queue::kStore);
  EXPECT_EQ(DmaDispatch(4).ChannelPriority(), (std::vector<size_t>{3, 2, 1, 0}));
  EXPECT_EQ(DmaDispatch(1).ChannelPriority(), (std::vector<size_t>{0}));
}

TEST(TokenCounts, AnInstructionStartsOnlyWithATokenFromEveryQueueItWaitsFor) {
  TokenCounts t;
  const uint8_t from_load_and_vector = 1u << int(Queue::kLoad) | 1u << int(Queue::kVector);
  EXPECT_EQ(t.Missing(Queue::kCompute, from_load_and_vector), int(Queue::kLoad));
  t.Give(Queue::kLoad, 1u << int(Queue::kCompute));
  EXPECT_EQ(t.Missing(Queue::kCompute, from_load_and_vector), int(Queue::kVector));
  t.Give(Queue::kVector, 1u << int(Queue::kCompute) | 1u << int(Queue::kStore));
  EXPECT_TRUE(t.Has(Queue::kCompute, from_load_and_vector));
  t.Take(Queue::kCompute, from_load_and_vector);
  EXPECT_FALSE(t.Has(Queue::kCompute, from_load_and_vector));
  EXPECT_EQ(t.count(Queue::kVector, Queue::kStore), 1u);  // another pair, untouched
  EXPECT_TRUE(t.Has(Queue::kStore, 0));                   // waiting for nothing
}

TEST(CommandFetch, BatchesOfFetchBatchWithAShorterLastOne) {
  NpuConfig c = DefaultConfig();
  c.mutable_cmd()->set_fetch_batch(16);
  c.mutable_cmd()->set_queue_depth(2);
  const FetchBatch first = FetchBatchAt(c, 0, 40);
  EXPECT_EQ(first.count, 16u);
  EXPECT_EQ(first.bytes(), 16 * kInsnBytes);
  const FetchBatch last = FetchBatchAt(c, 32, 40);
  EXPECT_EQ(last.count, 8u);
  EXPECT_EQ(last.offset(), 32 * kInsnBytes);
  EXPECT_TRUE(QueueAccepts(c, 1));
  EXPECT_FALSE(QueueAccepts(c, 2));
}

}  // namespace
}  // namespace npu::spec
