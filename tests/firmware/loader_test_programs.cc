// The loader tests' programs.
#include "tests/firmware/loader_test_programs.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "compiler/compile.h"
#include "compiler/network/model_pipeline.h"
#include "hw/spec/status.h"
#include "workloads/single_layer.h"

namespace npu::testing {
namespace {

// The value, or the error printed and the test process aborted (the fixtures must build).
template <class T>
T Must(StatusOr<T> value) {
  if (!value.ok()) {
    std::fprintf(stderr, "test fixture: %s\n", value.status().message().c_str());
    std::abort();
  }
  return *std::move(value);
}

}  // namespace

spec::Program LayerWithCpuOp(const spec::NpuConfig& config) {
  const workloads::Workload w = Must(workloads::MakeSingleLayerWorkload("conv3x3"));
  spec::Program p = Must(compiler::CompileConvLayer(config, w.layer));
  spec::CpuOp* lut = p.add_steps()->mutable_cpu();
  lut->set_name("negate");
  lut->set_kernel("lut");
  *lut->add_inputs() = p.outputs(0);
  spec::TensorDesc out = p.outputs(0);
  out.set_name("negated");
  out.set_dram_offset((p.dram_bytes() + 63) / 64 * 64);
  p.set_dram_bytes(out.dram_offset() + out.size_bytes());
  *lut->add_outputs() = out;
  spec::CpuAttr* table = lut->add_attrs();
  table->set_name("table");
  for (int k = 0; k < 256; ++k) table->add_ints(k == 0 ? 127 : 128 - k);
  return p;
}

spec::Program CompiledModel(const std::string& model, const spec::NpuConfig& config,
                            const std::vector<std::string>& cpu_ops) {
  compiler::ModelPipelineOptions o;
  o.compute_reference = false;
  o.calibration_samples = 1;
  o.compile.cpu_ops = cpu_ops;
  return Must(compiler::PrepareModel(model, config, o)).compiled.program;
}

spec::Instruction InstructionAt(const spec::Program& p, size_t index) {
  return Must(spec::Decode(reinterpret_cast<const uint8_t*>(p.instructions().data()) +
                           index * spec::kInsnBytes));
}

void ReplaceInstruction(spec::Program& p, size_t index, const spec::Instruction& insn) {
  const spec::InsnWord word = Must(spec::Encode(insn));
  std::memcpy(p.mutable_instructions()->data() + index * spec::kInsnBytes, word.data(),
              spec::kInsnBytes);
}

size_t FirstOf(const spec::Program& p, spec::Opcode opcode) {
  for (size_t i = 0; i < p.instructions().size() / spec::kInsnBytes; ++i) {
    if (InstructionAt(p, i).opcode == opcode) return i;
  }
  NPU_CHECK(false);
  return 0;
}

}  // namespace npu::testing
