// Programs of steps on the platform: CPU ops run by the firmware on the control core (their
// results, and the time the control core's cost model gives them), NPU runs and CPU ops in
// order on one timeline, and what the firmware refuses about steps before anything runs.
#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/driver_steps.h"
#include "hw/spec/cpu_ops.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"

namespace npu {
namespace {

using testing::kL;
using testing::kS;
using testing::ProgramBuilder;

constexpr uint32_t kA = 0x10000, kB = 0x11000, kOut = 0x12000, kCopy = 0x13000, kBytes = 1000;

spec::TensorDesc Tensor(const std::string& name, uint32_t offset, int32_t zero_point) {
  spec::TensorDesc t;
  t.set_name(name);
  t.add_shape(1);
  t.add_shape(kBytes);
  t.set_dtype(spec::INT8);
  t.set_dram_offset(offset);
  t.set_size_bytes(kBytes);
  t.set_scale(0.5f);
  t.set_zero_point(zero_point);
  return t;
}

spec::CpuAttr Attr(const std::string& name, int64_t v) {
  spec::CpuAttr a;
  a.set_name(name);
  a.add_ints(v);
  return a;
}

// out = clamp(3 + ((a + 1) * 3 + (b - 2) * -2 + 2) >> 2): an add whose b is subtracted.
spec::CpuOp AddOp(uint32_t a_offset) {
  spec::CpuOp op;
  op.set_name("sub");
  op.set_kernel("add");
  *op.add_inputs() = Tensor("a", a_offset, -1);
  *op.add_inputs() = Tensor("b", kB, 2);
  *op.add_outputs() = Tensor("out", kOut, 3);
  for (auto [name, v] : std::vector<std::pair<std::string, int64_t>>{{"a_multiplier", 3},
                                                                     {"b_multiplier", -2},
                                                                     {"shift", 2},
                                                                     {"clamp_min", -100},
                                                                     {"clamp_max", 100}}) {
    *op.add_attrs() = Attr(name, v);
  }
  return op;
}

std::vector<int8_t> Pattern(int seed) {
  std::vector<int8_t> v(kBytes);
  for (uint32_t i = 0; i < kBytes; ++i) v[i] = static_cast<int8_t>((i * 37 + seed * 11) % 256);
  return v;
}

std::vector<int8_t> Expected(const spec::CpuOp& op, const std::vector<int8_t>& a,
                             const std::vector<int8_t>& b) {
  spec::EltwiseArgs args;
  args.count = kBytes;
  args.a_zero_point = -1, args.b_zero_point = 2, args.out_zero_point = 3;
  args.a_multiplier = 3, args.b_multiplier = -2, args.shift = 2;
  args.clamp_min = -100, args.clamp_max = 100;
  std::vector<int8_t> out;
  spec::ComputeEltwise(args, a, b, out);
  return out;
}

ProgramBuilder Io(const spec::NpuConfig& c) {
  ProgramBuilder p(c);
  p.Input(kA, kBytes).Input(kB, kBytes).Output(kOut, kBytes);
  return p;
}

TEST(CpuOp, ComputesItsKernelAndTakesTheTimeOfTheCostModel) {
  const spec::NpuConfig c = spec::DefaultConfig();
  spec::Program program = Io(c).Build();
  program.clear_steps();
  *program.add_steps()->mutable_cpu() = AddOp(kA);
  const std::vector<int8_t> a = Pattern(1), b = Pattern(2);
  StatusOr<platform::RunResult> r = platform::RunBinary(c, spec::SealProgram(program), {a, b}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outputs[0], Expected(program.steps(0).cpu(), a, b));
  // The TIMER_LO and TIMER_HI reads, two input blocks, the kernel's work, one output block (an idle
  // DRAM).
  const std::vector<spec::CpuWorkItem> work = *spec::CpuOpWork(program.steps(0).cpu());
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].kind, spec::CpuWork::kElementwise);
  EXPECT_EQ(work[0].count, kBytes);
  const uint64_t expected =
      2 + 3 * spec::DramTransferCycles(c, kBytes) + spec::CpuOpNpuCycles(c, work);
  ASSERT_EQ(r->steps.size(), 1u);
  EXPECT_EQ(r->steps[0].end_cycle - r->steps[0].begin_cycle, expected);
  EXPECT_EQ(r->cycles, expected);
  EXPECT_EQ(r->counters[spec::regs::kCycles], 0u);  // the NPU never ran
}

TEST(CpuOp, ASmallCoreIsSlowerByItsCostModel) {
  const spec::NpuConfig large = spec::DefaultConfig();
  spec::NpuConfig small = large;
  small.mutable_cpu()->set_core(spec::SMALL_CORE);
  const spec::CpuOp op = AddOp(kA);
  const std::vector<spec::CpuWorkItem> work = *spec::CpuOpWork(op);
  // 1000 elements at 1 cycle on 400 MHz plus 2000 cycles overhead, in 1 GHz NPU cycles.
  EXPECT_EQ(spec::CpuOpNpuCycles(small, work), (2000 + 1000) * 1000 / 400);
  EXPECT_EQ(spec::CpuOpNpuCycles(large, work), (3000u + 500u) * 1000 / 1500 + 1);
}

TEST(CpuOp, NpuRunsAndCpuOpsRunInOrderOnOneTimeline) {
  // Step 0 (NPU): copy a to kCopy through SRAM. Step 1 (CPU): the add reads the copy. Step 2
  // (NPU): the copy again.
  const spec::NpuConfig c = spec::DefaultConfig();
  ProgramBuilder builder = Io(c);
  for (int run = 0; run < 2; ++run) {
    builder.Add(testing::Load(kA, 0, kBytes, 0, kS)).Add(testing::Store(0, kCopy, kBytes, kL, 0));
  }
  spec::Program program = builder.Build();
  program.set_dram_bytes(kCopy + kBytes);
  program.mutable_steps(0)->mutable_npu()->set_instruction_count(2);
  *program.add_steps()->mutable_cpu() = AddOp(kCopy);
  spec::NpuRun* again = program.add_steps()->mutable_npu();
  again->set_first_instruction(2);
  again->set_instruction_count(2);
  const std::vector<int8_t> a = Pattern(3), b = Pattern(4);
  StatusOr<platform::RunResult> r = platform::RunBinary(c, spec::SealProgram(program), {a, b}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outputs[0], Expected(program.steps(1).cpu(), a, b));
  ASSERT_EQ(r->steps.size(), 3u);
  EXPECT_EQ(r->steps[0].begin_cycle, 0u);
  EXPECT_EQ(r->steps[0].end_cycle + r->steps[2].end_cycle - r->steps[2].begin_cycle,
            r->counters[spec::regs::kCycles]);
  // Between the steps, the driver's register accesses as hw/spec/driver_steps.h counts them (the
  // compiler's prediction adds them): after the run the interrupt and the counters, after the
  // CPU op the rest of its TIMER reads and the next run's registers.
  EXPECT_EQ(r->steps[1].begin_cycle - r->steps[0].end_cycle, spec::StepHandoffCycles(true, false));
  EXPECT_EQ(r->steps[2].begin_cycle - r->steps[1].end_cycle, spec::StepHandoffCycles(false, true));
  EXPECT_EQ(spec::StepHandoffCycles(true, false), 84u);
  EXPECT_EQ(r->cycles, r->steps[2].end_cycle);
  ASSERT_EQ(r->records.size(), 4u);
  EXPECT_LE(r->records[1].end, r->steps[0].end_cycle);
}

Status Refusal(const spec::Program& program) {
  StatusOr<platform::RunResult> r =
      platform::RunBinary(spec::DefaultConfig(), spec::SealProgram(program), {}, {});
  EXPECT_FALSE(r.ok());
  return r.status();
}

void ExpectMessage(const Status& s, const std::string& needle) {
  EXPECT_EQ(s.kind(), ErrorKind::kDataLoss);
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

TEST(CpuOp, FirmwareRefusesAProgramWithoutSteps) {
  spec::Program program = ProgramBuilder(spec::DefaultConfig()).Build();
  program.clear_steps();
  ExpectMessage(Refusal(program), "no steps");
}

TEST(CpuOp, FirmwareRefusesAnNpuRunOutsideTheInstructions) {
  spec::Program program =
      ProgramBuilder(spec::DefaultConfig()).Add(testing::Load(0, 0, 16)).Build();
  program.mutable_steps(0)->mutable_npu()->set_instruction_count(2);
  ExpectMessage(Refusal(program), "step 0: NPU run of instructions [0, +2)");
}

TEST(CpuOp, FirmwareRefusesAnUnknownKernel) {
  spec::Program program = Io(spec::DefaultConfig()).Build();
  program.clear_steps();
  spec::CpuOp op = AddOp(kA);
  op.set_kernel("fft");
  *program.add_steps()->mutable_cpu() = op;
  ExpectMessage(Refusal(program), "CPU op 'sub': this firmware has no kernel 'fft'");
}

TEST(CpuOp, FirmwareRefusesAnOperandOutsideTheImage) {
  spec::Program program = Io(spec::DefaultConfig()).Build();
  program.clear_steps();
  spec::CpuOp op = AddOp(kA);
  op.mutable_outputs(0)->set_dram_offset(program.dram_bytes());
  *program.add_steps()->mutable_cpu() = op;
  ExpectMessage(Refusal(program), "tensor 'out' at DRAM offset");
}

TEST(CpuOp, FirmwareRefusesAnOperandWhoseSizeIsNotItsShape) {
  spec::Program program = Io(spec::DefaultConfig()).Build();
  program.clear_steps();
  spec::CpuOp op = AddOp(kA);
  op.mutable_inputs(1)->set_size_bytes(kBytes - 1);
  *program.add_steps()->mutable_cpu() = op;
  ExpectMessage(Refusal(program), "tensor 'b': 999 bytes for shape [1,1000] of INT8");
}

}  // namespace
}  // namespace npu
