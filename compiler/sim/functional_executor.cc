// The functional executor.
#include "compiler/sim/functional_executor.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <deque>
#include <random>

#include "compiler/compile.h"
#include "hw/spec/fp16.h"
#include "hw/spec/layer_norm.h"
#include "hw/spec/resize.h"
#include "hw/spec/sram_words.h"
#include "hw/spec/unit_accesses.h"
#include "hw/spec/semantics.h"
#include "hw/spec/sram_words.h"
#include "hw/spec/timing_model.h"

namespace npu::compiler::sim {
namespace {

bool InRange(uint64_t begin, uint64_t bytes, uint64_t size) {
  return begin <= size && bytes <= size - begin;
}

}  // namespace

FunctionalExecutor::FunctionalExecutor(const spec::NpuConfig& config, CpuOpRunner cpu)
    : config_(config),
      cpu_(std::move(cpu)),
      sram_(config.sram().size_bytes()),
      acc_(config.mac().acc_buffer_bytes() / 4) {}

Status FunctionalExecutor::Load(const spec::Program& program) {
  program_ = program;
  dram_.assign(program.dram_bytes(), 0);
  for (const spec::Segment& s : program.constants()) {
    if (!InRange(s.dram_offset(), s.data().size(), dram_.size())) {
      return InvalidArgument(fmt::format("segment {} outside the image", s.name()));
    }
    std::memcpy(dram_.data() + s.dram_offset(), s.data().data(), s.data().size());
  }
  NPU_ASSIGN_OR_RETURN(insns_, DecodeInstructions(program));
  return Status::Ok();
}

Status FunctionalExecutor::WriteInput(std::span<const int8_t> input) {
  if (program_.inputs_size() == 0) return InvalidArgument("the program has no input");
  return WriteTensor(program_.inputs(0), input);
}

Status FunctionalExecutor::WriteInputs(const std::vector<std::vector<int8_t>>& inputs) {
  if (static_cast<int>(inputs.size()) != program_.inputs_size()) {
    return InvalidArgument(fmt::format("{} inputs given; the program takes {}", inputs.size(),
                                       program_.inputs_size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    NPU_TRY(WriteTensor(program_.inputs(static_cast<int>(i)), inputs[i]));
  }
  return Status::Ok();
}

Status FunctionalExecutor::WriteTensor(const spec::TensorDesc& t, std::span<const int8_t> data) {
  if (data.size() != t.size_bytes() || !InRange(t.dram_offset(), t.size_bytes(), dram_.size())) {
    return InvalidArgument(fmt::format("input '{}': {} bytes given, {} expected (or outside DRAM)",
                                       t.name(), data.size(), t.size_bytes()));
  }
  std::memcpy(dram_.data() + t.dram_offset(), data.data(), data.size());
  return Status::Ok();
}

std::vector<int8_t> FunctionalExecutor::ReadOutput() const { return ReadOutputs().at(0); }

std::vector<std::vector<int8_t>> FunctionalExecutor::ReadOutputs() const {
  std::vector<std::vector<int8_t>> outputs;
  for (const spec::TensorDesc& t : program_.outputs()) {
    std::vector<int8_t>& out = outputs.emplace_back(t.size_bytes());
    if (InRange(t.dram_offset(), t.size_bytes(), dram_.size())) {
      std::memcpy(out.data(), dram_.data() + t.dram_offset(), out.size());
    }
  }
  return outputs;
}

Status FunctionalExecutor::Run(uint32_t seed) {
  for (int s = 0; s < program_.steps_size(); ++s) {
    const spec::Step& step = program_.steps(s);
    if (step.has_npu()) {
      NPU_TRY(RunNpu(step.npu(), seed).WithContext(fmt::format("step {}", s)));
      continue;
    }
    if (!cpu_) {
      return FailedPrecondition(
          fmt::format("step {}: CPU op '{}' and no CPU runner", s, step.cpu().name()));
    }
    NPU_TRY(cpu_(step.cpu(), dram_).WithContext(fmt::format("step {}", s)));
  }
  return Status::Ok();
}

Status FunctionalExecutor::RunNpu(const spec::NpuRun& run, uint32_t seed) {
  constexpr int kQ = spec::kNumQueues;
  const size_t first = run.first_instruction(), end = first + run.instruction_count();
  if (end > insns_.size()) return InvalidArgument("NPU run outside the instructions");
  std::array<std::deque<size_t>, kQ> queues;
  for (size_t i = first; i < end; ++i) queues[static_cast<int>(insns_[i].queue())].push_back(i);
  std::array<std::array<int64_t, kQ>, kQ> tokens{};  // [src][dst]
  auto ready = [&](int q) {
    if (queues[q].empty()) return false;
    const spec::Instruction& insn = insns_[queues[q].front()];
    for (int p = 0; p < kQ; ++p) {
      if ((insn.wait_mask >> p & 1) && tokens[p][q] == 0) return false;
    }
    return true;
  };
  std::mt19937 rng(seed);
  for (size_t done = first; done < end; ++done) {
    std::vector<int> candidates;
    if (seed == 0) {
      candidates.push_back(static_cast<int>(insns_[done].queue()));
      if (!ready(candidates[0]))
        return FailedPrecondition(fmt::format("#{}: token not given yet", done));
    } else {
      for (int q = 0; q < kQ; ++q) {
        if (ready(q)) candidates.push_back(q);
      }
      if (candidates.empty()) return FailedPrecondition("deadlock");
    }
    const int q = candidates[rng() % candidates.size()];
    const size_t i = queues[q].front();
    queues[q].pop_front();
    for (int p = 0; p < kQ; ++p) tokens[p][q] -= insns_[i].wait_mask >> p & 1;
    if (Status s = Execute(i); !s.ok()) {
      return s.WithContext(fmt::format("#{} {}", i, spec::Disassemble(insns_[i])));
    }
    for (int p = 0; p < kQ; ++p) tokens[q][p] += insns_[i].signal_mask >> p & 1;
  }
  return Status::Ok();
}

Status FunctionalExecutor::Execute(size_t index) {
  const spec::Instruction& insn = insns_[index];
  ++executed_;
  if (std::holds_alternative<spec::DmaArgs>(insn.args)) return Dma(insn);
  if (const auto* conv = std::get_if<spec::ConvArgs>(&insn.args)) return Conv(*conv);
  if (const auto* pool = std::get_if<spec::PoolArgs>(&insn.args)) return Pool(*pool);
  if (const auto* eltwise = std::get_if<spec::EltwiseArgs>(&insn.args)) return Eltwise(*eltwise);
  if (const auto* lut = std::get_if<spec::LutArgs>(&insn.args)) return Lut(*lut);
  if (const auto* resize = std::get_if<spec::ResizeArgs>(&insn.args)) return Resize(*resize);
  if (const auto* dw = std::get_if<spec::DwConvArgs>(&insn.args)) return DwConv(*dw);
  if (const auto* lnorm = std::get_if<spec::LnormArgs>(&insn.args)) return Lnorm(*lnorm);
  return Act(std::get<spec::ActArgs>(insn.args));
}

Status FunctionalExecutor::Dma(const spec::Instruction& insn) {
  for (const spec::Burst& b : spec::SplitIntoBursts(config_, std::get<spec::DmaArgs>(insn.args))) {
    const spec::SramAccess sram = spec::BurstSramAccess(b, insn.opcode);
    if (!InRange(b.dram_offset, b.bytes, dram_.size())) return InvalidArgument("DRAM range");
    if (!InRange(sram.addr, spec::SramAccessSpan(sram), sram_.size())) {
      return InvalidArgument("SRAM range");
    }
    spec::MoveSramBytes(sram, sram_.data(), dram_.data() + b.dram_offset);
  }
  return Status::Ok();
}

Status FunctionalExecutor::Conv(const spec::ConvArgs& c) {
  if (const std::string bad = spec::CheckConv(c); !bad.empty()) return InvalidArgument(bad);
  const uint64_t in = spec::ConvInputBytes(c), wt = spec::ConvWeightBytes(c);
  if (!InRange(c.in_addr, in, sram_.size()) || !InRange(c.wt_addr, wt, sram_.size())) {
    return InvalidArgument("CONV operand outside SRAM");
  }
  if (!InRange(c.acc_addr, spec::ConvAccEntries(c), acc_.size())) {
    return InvalidArgument("CONV accumulator range");
  }
  const int8_t* s = Sram();
  spec::ComputeConv(c, {s + c.in_addr, in}, {s + c.wt_addr, wt},
                    {acc_.data() + c.acc_addr, spec::ConvAccEntries(c)});
  return Status::Ok();
}

Status FunctionalExecutor::Act(const spec::ActArgs& a) {
  if (const std::string bad = spec::CheckAct(a); !bad.empty()) return InvalidArgument(bad);
  const uint64_t table_bytes = a.use_table ? spec::kLutEntries : 0;
  if (!InRange(a.acc_addr, spec::ActAccEntries(a), acc_.size()) ||
      !InRange(a.param_addr, spec::ActParamBytes(a), sram_.size()) ||
      !InRange(a.table_addr, table_bytes, sram_.size()) ||
      !InRange(a.out_addr, spec::ActOutputSpan(a), sram_.size())) {
    return InvalidArgument("ACT operand out of range");
  }
  std::vector<int8_t> out;
  if (spec::ComputeAct(a, {acc_.data() + a.acc_addr, spec::ActAccEntries(a)},
                       {sram_.data() + a.param_addr, spec::ActParamBytes(a)},
                       {Sram() + a.table_addr, table_bytes}, out) != spec::regs::ErrorCode::kNone) {
    return InvalidArgument("bad ACT parameter");
  }
  const uint64_t e = spec::ElementBytes(a.fp16);
  WritePixels(a.out_addr, out, a.pixels, a.channels * e, a.out_pixel_stride * e);
  return Status::Ok();
}

void FunctionalExecutor::ReadPixels(uint64_t addr, std::vector<int8_t>& in, uint64_t pixels,
                                    uint64_t channels, uint64_t stride) const {
  in.resize(pixels * channels);
  for (uint64_t m = 0; m < pixels; ++m) {
    std::memcpy(in.data() + m * channels, sram_.data() + addr + m * stride, channels);
  }
}

void FunctionalExecutor::WritePixels(uint64_t addr, const std::vector<int8_t>& out, uint64_t pixels,
                                     uint64_t channels, uint64_t stride) {
  for (uint64_t m = 0; m < pixels; ++m) {
    std::memcpy(sram_.data() + addr + m * stride, out.data() + m * channels, channels);
  }
}

Status FunctionalExecutor::Pool(const spec::PoolArgs& p) {
  if (const std::string bad = spec::CheckPool(p); !bad.empty()) return InvalidArgument(bad);
  if (!InRange(p.in_addr, spec::PoolInputBytes(p), sram_.size()) ||
      !InRange(p.out_addr, spec::PoolOutputSpan(p), sram_.size())) {
    return InvalidArgument("POOL operand out of range");
  }
  const uint64_t e = spec::PoolOutElementBytes(p);
  std::vector<int8_t> prior, out;
  if (p.accumulate) {
    ReadPixels(p.out_addr, prior, uint64_t{p.out_h} * p.out_w, p.channels * e,
               p.out_pixel_stride * e);
  }
  spec::ComputePool(p, {Sram() + p.in_addr, spec::PoolInputBytes(p)}, prior, out);
  WritePixels(p.out_addr, out, uint64_t{p.out_h} * p.out_w, p.channels * e,
              p.out_pixel_stride * e);
  return Status::Ok();
}

Status FunctionalExecutor::DwConv(const spec::DwConvArgs& d) {
  if (const std::string bad = spec::CheckDwConv(d); !bad.empty()) return InvalidArgument(bad);
  const uint64_t wt = spec::DwConvWeightBytes(d), params = spec::DwConvParamBytes(d);
  if (!InRange(d.in_addr, spec::DwConvInputSpan(d), sram_.size()) ||
      !InRange(d.wt_addr, wt, sram_.size()) ||
      !InRange(d.param_addr, params, sram_.size()) ||
      !InRange(d.out_addr, spec::DwConvOutputSpan(d), sram_.size())) {
    return InvalidArgument("DWCONV operand out of range");
  }
  std::vector<int8_t> in, out;
  ReadPixels(d.in_addr, in, uint64_t{d.in_h} * d.in_w, d.channels, spec::DwConvInPixelStride(d));
  const auto* bytes = reinterpret_cast<const uint8_t*>(Sram());
  if (spec::ComputeDwConv(d, in, {Sram() + d.wt_addr, wt},
                          {bytes + d.param_addr, params}, out) != spec::regs::ErrorCode::kNone) {
    return InvalidArgument("DWCONV requantisation shift outside 1..62");
  }
  WritePixels(d.out_addr, out, uint64_t{d.out_h} * d.out_w, d.channels, d.out_pixel_stride);
  return Status::Ok();
}

Status FunctionalExecutor::Lnorm(const spec::LnormArgs& l) {
  if (const std::string bad = spec::CheckLnorm(l); !bad.empty()) return InvalidArgument(bad);
  const uint64_t bytes = spec::LnormBytes(l), params = spec::LnormParamBytes(l);
  if (!InRange(l.in_addr, bytes, sram_.size()) || !InRange(l.param_addr, params, sram_.size()) ||
      !InRange(l.out_addr, bytes, sram_.size())) {
    return InvalidArgument("LNORM operand out of range");
  }
  std::vector<int8_t> out;
  const auto* raw = reinterpret_cast<const uint8_t*>(Sram());
  if (spec::ComputeLnorm(l, {Sram() + l.in_addr, bytes}, {raw + l.param_addr, params}, out) !=
      spec::regs::ErrorCode::kNone) {
    return InvalidArgument("LNORM requantisation shift outside 1..62 or gamma outside int8");
  }
  std::memcpy(sram_.data() + l.out_addr, out.data(), bytes);
  return Status::Ok();
}

Status FunctionalExecutor::Eltwise(const spec::EltwiseArgs& e) {
  if (const std::string bad = spec::CheckEltwise(e); !bad.empty()) return InvalidArgument(bad);
  const uint64_t bytes = spec::EltwiseBytes(e), b_bytes = spec::EltwiseBBytes(e);
  const uint64_t out_bytes = spec::EltwiseOutBytes(e);
  if (!InRange(e.a_addr, bytes, sram_.size()) || !InRange(e.b_addr, b_bytes, sram_.size()) ||
      !InRange(e.out_addr, out_bytes, sram_.size())) {
    return InvalidArgument("ELTWISE operand out of range");
  }
  std::vector<int8_t> out;
  spec::ComputeEltwise(e, {Sram() + e.a_addr, bytes}, {Sram() + e.b_addr, b_bytes}, out);
  std::memcpy(sram_.data() + e.out_addr, out.data(), out_bytes);
  return Status::Ok();
}

Status FunctionalExecutor::Lut(const spec::LutArgs& l) {
  if (const std::string bad = spec::CheckLut(l); !bad.empty()) return InvalidArgument(bad);
  const uint64_t table_bytes = spec::LutTableBytes(l);
  if (!InRange(l.table_addr, table_bytes, sram_.size()) ||
      !InRange(l.in_addr, spec::LutInputSpan(l), sram_.size()) ||
      !InRange(l.out_addr, spec::LutOutputSpan(l), sram_.size())) {
    return InvalidArgument("LUT operand out of range");
  }
  // The input and output accesses are the unit's (pixels with channels, scattered by
  // out_elem_stride): the last two of its list.
  std::vector<spec::SramAccess> accesses = spec::UnitSramAccesses({spec::Opcode::kLut, 0, 0, l});
  const spec::SramAccess &read = accesses[accesses.size() - 2], &write = accesses.back();
  std::vector<int8_t> in(read.bytes()), out;
  spec::MoveSramBytes(read, sram_.data(), reinterpret_cast<uint8_t*>(in.data()));
  spec::ComputeLut(l, in, {Sram() + l.table_addr, table_bytes}, out);
  spec::MoveSramBytes(write, sram_.data(), reinterpret_cast<uint8_t*>(out.data()));
  return Status::Ok();
}

Status FunctionalExecutor::Resize(const spec::ResizeArgs& r) {
  if (const std::string bad = spec::CheckResize(r); !bad.empty()) return InvalidArgument(bad);
  const uint64_t row_bytes = spec::ResizeRowTapBytes(r), col_bytes = spec::ResizeColTapBytes(r);
  if (!InRange(r.row_taps_addr, row_bytes, sram_.size()) ||
      !InRange(r.col_taps_addr, col_bytes, sram_.size()) ||
      !InRange(r.in_addr, spec::ResizeInputSpan(r), sram_.size()) ||
      !InRange(r.out_addr, spec::ResizeOutputSpan(r), sram_.size())) {
    return InvalidArgument("RESIZE operand out of range");
  }
  const std::span<const uint8_t> rows{sram_.data() + r.row_taps_addr, row_bytes};
  const std::span<const uint8_t> cols{sram_.data() + r.col_taps_addr, col_bytes};
  if (const std::string bad = spec::CheckResizeTaps(r, rows, cols); !bad.empty()) {
    return InvalidArgument(bad);
  }
  const uint64_t in_pixels = uint64_t{r.in_h} * r.in_w;
  std::vector<int8_t> in, out;
  ReadPixels(r.in_addr, in, in_pixels, r.channels, r.in_pixel_stride);
  spec::ComputeResize(r, in, rows, cols, out);
  WritePixels(r.out_addr, out, uint64_t{r.out_h} * r.out_w, r.channels, r.out_pixel_stride);
  return Status::Ok();
}

}  // namespace npu::compiler::sim
