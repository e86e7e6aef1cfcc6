// The token protocol checker catches each kind of broken stream and names the instruction.
#include "compiler/schedule/token_check.h"

#include <gtest/gtest.h>

namespace npu::compiler {
namespace {

constexpr uint8_t kL = 1, kC = 2, kV = 4;

spec::Instruction Load(uint8_t wait, uint8_t signal) {
  return {spec::Opcode::kLoad, wait, signal, spec::DmaArgs{0, 0, 16}};
}
spec::Instruction Conv(uint8_t wait, uint8_t signal) {
  spec::ConvArgs c;
  c.in_h = c.in_w = c.in_c = c.out_h = c.out_w = c.out_c = 1;
  return {spec::Opcode::kConv, wait, signal, c};
}

void ExpectFails(const std::vector<spec::Instruction>& s, const std::string& text) {
  const Status status = CheckTokenProtocol(s);
  ASSERT_FALSE(status.ok()) << text;
  EXPECT_EQ(status.kind(), ErrorKind::kFailedPrecondition);
  EXPECT_NE(status.message().find(text), std::string::npos) << status.message();
}

TEST(TokenCheck, AcceptsABalancedBackwardStream) {
  EXPECT_TRUE(CheckTokenProtocol({Load(0, kC), Conv(kL, kL), Load(kC, 0)}).ok());
  EXPECT_TRUE(CheckTokenProtocol({}).ok());
}

TEST(TokenCheck, DeadlockNamesTheBlockedInstruction) {
  ExpectFails({Load(0, 0), Conv(kL, 0)}, "deadlock; #1 conv waits for a token from load");
}

TEST(TokenCheck, MutualWaitDeadlocks) {
  ExpectFails({Load(kC, kC), Conv(kL, kL)}, "deadlock; #0 load waits for a token from compute");
}

TEST(TokenCheck, UnbalancedSignal) {
  ExpectFails({Load(0, kC), Conv(0, 0)}, "unbalanced tokens: #0 load signals compute");
}

TEST(TokenCheck, DependencyPointingForward) {
  // Runs without deadlock (the queues are independent) but the stream order is not a schedule.
  ExpectFails({Conv(kL, 0), Load(0, kC)}, "#0 conv waits for a token from load that no earlier");
}

TEST(TokenCheck, OwnQueueInMask) {
  ExpectFails({Load(0, kL)}, "#0 load: token mask names its own queue");
  ExpectFails({Conv(0, kV | 0x10)}, "#0 conv: token mask");
}

}  // namespace
}  // namespace npu::compiler
