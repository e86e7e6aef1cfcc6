// The testbench side of the RTL reference: DPI functions, operand layout, hw/spec expectations.
#include "tests/rtl/rtl_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <stdexcept>

#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

namespace npu::rtl {

BenchState& State() {
  static BenchState state;
  return state;
}

namespace {

// The order of npu_rtl_pkg::field_t.
std::vector<int64_t> Fields(const spec::ConvArgs& c) {
  return {c.in_addr,    c.in_h,       c.in_w,          c.in_c,         c.pad_top,  c.pad_left,
          c.pad_value,  c.kernel_h,   c.kernel_w,      c.stride_h,     c.stride_w, c.dilation_h,
          c.dilation_w, c.out_h,      c.out_w,         c.out_c,        c.wt_addr,  c.acc_addr,
          c.accumulate, c.weights_kn, c.in_zero_point, c.wt_zero_point, c.depthwise,
          c.groups};
}

}  // namespace

void Prepare(const std::vector<spec::ConvArgs>& convs, uint32_t seed) {
  BenchState& s = State();
  s = BenchState{};
  s.insns = convs;
  uint64_t sram = 0, acc = 0;
  for (spec::ConvArgs& c : s.insns) {
    c.in_addr = static_cast<uint32_t>(sram);
    sram += spec::ConvInputBytes(c);
    c.wt_addr = static_cast<uint32_t>(sram);
    sram += spec::ConvWeightBytes(c);
    acc = std::max<uint64_t>(acc, c.acc_addr + spec::ConvAccEntries(c));
  }
  std::mt19937 rng(seed);
  s.sram.resize(sram);
  for (int8_t& b : s.sram) b = static_cast<int8_t>(rng());
  s.acc.assign(acc, 0x5a5a5a5a);  // stale contents: a first K-chunk must overwrite them
  s.end_cycle.assign(convs.size(), -1);
  s.folds_done.assign(convs.size(), 0);
}

std::vector<int32_t> ExpectedAcc() {
  const BenchState& s = State();
  std::vector<int32_t> acc = s.acc;
  for (const spec::ConvArgs& c : s.insns) {
    std::vector<int32_t> tile(spec::ConvAccEntries(c));
    std::copy_n(acc.begin() + c.acc_addr, tile.size(), tile.begin());
    const std::span<const int8_t> in(s.sram.data() + c.in_addr, spec::ConvInputBytes(c));
    const std::span<const int8_t> wt(s.sram.data() + c.wt_addr, spec::ConvWeightBytes(c));
    spec::ComputeConv(c, in, wt, tile);
    std::copy(tile.begin(), tile.end(), acc.begin() + c.acc_addr);
  }
  return acc;
}

std::vector<uint64_t> ExpectedCycles(const spec::NpuConfig& config) {
  spec::FoldChain chain;
  uint64_t now = 0;
  std::vector<uint64_t> cycles;
  for (const spec::ConvArgs& c : State().insns) {
    const uint64_t n = spec::ConvArrayCycles(config, c, chain.Predecessor(config, c, now));
    chain.Ended(c, now + n);
    now += n;
    cycles.push_back(n);
  }
  return cycles;
}

std::string Check(const spec::NpuConfig& config, std::vector<uint64_t>* measured) {
  const BenchState& s = State();
  const std::vector<int32_t> expected = ExpectedAcc();
  for (size_t i = 0; i < expected.size(); ++i) {
    if (s.acc[i] != expected[i]) {
      return fmt::format("acc[{}] = {}, hw/spec says {}", i, s.acc[i], expected[i]);
    }
  }
  const std::vector<uint64_t> want = ExpectedCycles(config);
  int64_t before = s.begin_cycle;
  std::string problems;
  for (size_t i = 0; i < want.size(); ++i) {
    if (s.end_cycle[i] < 0) return fmt::format("instruction {} never finished", i);
    const uint64_t got = static_cast<uint64_t>(s.end_cycle[i] - before);
    before = s.end_cycle[i];
    if (measured) measured->push_back(got);
    const uint64_t tolerance = std::max<uint64_t>(2, want[i] / 100);
    const uint64_t diff = got > want[i] ? got - want[i] : want[i] - got;
    if (diff > tolerance) {
      problems += fmt::format("insn {}: {} cycles, hw/spec {}; ", i, got, want[i]);
    }
    if (s.folds_done[i] != spec::ConvFolds(config, s.insns[i])) {
      problems += fmt::format("insn {}: {} folds, hw/spec {}; ", i, s.folds_done[i],
                              spec::ConvFolds(config, s.insns[i]));
    }
  }
  return problems;
}

std::string FormatConv(const spec::ConvArgs& c) {
  std::string line;
  for (int64_t f : Fields(c)) line += fmt::format("{}{}", line.empty() ? "" : " ", f);
  return line;
}

std::vector<spec::ConvArgs> ParseConvs(const std::string& text) {
  std::vector<spec::ConvArgs> convs;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    int64_t f[24];
    for (int64_t& v : f) in >> v;
    if (!in) throw std::runtime_error("a CONV line needs 24 fields: " + line);
    spec::ConvArgs c;
    c.in_addr = f[0], c.in_h = f[1], c.in_w = f[2], c.in_c = f[3], c.pad_top = f[4];
    c.pad_left = f[5], c.pad_value = f[6], c.kernel_h = f[7], c.kernel_w = f[8];
    c.stride_h = f[9], c.stride_w = f[10], c.dilation_h = f[11], c.dilation_w = f[12];
    c.out_h = f[13], c.out_w = f[14], c.out_c = f[15], c.wt_addr = f[16], c.acc_addr = f[17];
    c.accumulate = f[18], c.weights_kn = f[19], c.in_zero_point = f[20];
    c.wt_zero_point = f[21], c.depthwise = f[22], c.groups = uint32_t(f[23]);
    convs.push_back(c);
  }
  return convs;
}

}  // namespace npu::rtl

// DPI functions (hw/rtl/npu_rtl_pkg.sv).
extern "C" {
int npu_insn_count() { return static_cast<int>(npu::rtl::State().insns.size()); }
int npu_insn_field(int idx, int field) {
  return static_cast<int>(npu::rtl::Fields(npu::rtl::State().insns.at(idx)).at(field));
}
// Combinational reads: an idle lane may present any address (its operand is then unused).
int npu_sram_byte(int addr) {
  const std::vector<int8_t>& sram = npu::rtl::State().sram;
  return addr >= 0 && static_cast<size_t>(addr) < sram.size() ? sram[addr] : 0;
}
int npu_acc_read(int entry) { return npu::rtl::State().acc.at(entry); }
void npu_acc_write(int entry, int value) { npu::rtl::State().acc.at(entry) = value; }
void npu_fold_done(int insn, int last_of_insn, long long cycle) {
  npu::rtl::BenchState& s = npu::rtl::State();
  ++s.folds_done.at(insn);
  if (last_of_insn) s.end_cycle.at(insn) = cycle + 1;
}
void npu_begin(long long cycle) { npu::rtl::State().begin_cycle = cycle; }
}
