// libFuzzer's custom mutator for the targets whose input is a serialised Program
// (fuzz_program, fuzz_platform): parse, change one field anywhere (ProtoMutator: offsets, sizes,
// counts, instruction words, attributes, steps) or give a CPU op another kernel of the
// firmware's (so that every kernel meets operands and attributes made for another), serialise.
// libFuzzer builds only.
#include "hw/spec/binary.pb.h"
#include "hw/spec/cpu_ops.h"
#include "tests/fuzz/proto_mutator.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

constexpr uint64_t kKernelSwapOneIn = 8;

void MutateProgram(npu::spec::Program& program, npu::fuzz::ProtoMutator& mutator) {
  std::vector<npu::spec::CpuOp*> ops;
  for (npu::spec::Step& step : *program.mutable_steps()) {
    if (step.has_cpu()) ops.push_back(step.mutable_cpu());
  }
  if (ops.empty() || !mutator.OneIn(kKernelSwapOneIn)) {
    mutator.Mutate(program);
    return;
  }
  const auto kernels = npu::spec::CpuKernelNames();
  ops[mutator.Below(ops.size())]->set_kernel(std::string(kernels[mutator.Below(kernels.size())]));
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  npu::spec::Program program;
  return npu::fuzz::MutateSerialized(
      program, data, size, max_size, seed, LLVMFuzzerMutate,
      [](google::protobuf::Message& m, npu::fuzz::ProtoMutator& mutator) {
        MutateProgram(static_cast<npu::spec::Program&>(m), mutator);
      });
}
