// Preparing a compiled binary file: open it, pick its config, check it as the firmware will,
// then its inputs and reference outputs.
#include "tools/run_workload/binary_source.h"

#include <fmt/format.h>

#include <random>

#include "compiler/ir/graph_proto.h"
#include "compiler/network/batch.h"
#include "compiler/qinterp/check.h"
#include "compiler/qinterp/host_io.h"
#include "compiler/qinterp/qinterp.h"
#include "firmware/program_check.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "hw/spec/file_io.h"
#include "tools/common/npy.h"

namespace npu::tools {
namespace {

namespace ir = compiler::ir;

constexpr uint32_t kMaxBatch = 4096;         // as --batch allows
constexpr uint32_t kInputSeed = 0x6E707562;  // "npub": the default inputs' seed

// The options that choose how a model compiles mean nothing to a compiled binary.
Status RefuseCompileOptions(const Options& o) {
  std::vector<std::string> given;
  if (!o.calib.empty()) given.push_back("--calib");
  if (o.weight_bits != 8 || o.auto_precision || o.fp16) given.push_back("--precision");
  if (o.batch != 0) given.push_back("--batch");
  if (o.image_size != 0) given.push_back("--image-size");
  if (!o.cpu_ops.empty()) given.push_back("--cpu-ops");
  if (!o.cpu_fallback) given.push_back("--no-cpu-fallback");
  if (given.empty()) return Status::Ok();
  return InvalidArgument(fmt::format(
      "{}: {} changes how a model compiles; a compiled binary cannot change (give them to "
      "npu_compile)",
      o.model, fmt::join(given, ", ")));
}

// The recorded config with --set on top, unless --config names another.
StatusOr<spec::NpuConfig> BinaryConfig(const Options& o, const spec::Program& program) {
  if (!o.config_file.empty()) return spec::ResolveConfig(o.config_file, o.overrides);
  NPU_ASSIGN_OR_RETURN(const spec::NpuConfig recorded, spec::RecordedArchitecture(program));
  return spec::ResolveConfig(recorded, "", o.overrides);
}

// A float32 .npy in the tensor's shape (or the NCHW order of a 4-D NHWC tensor) is quantised with
// its scale and zero point as run_workload MODEL --input does; an int8 one is taken as it is.
StatusOr<std::vector<int8_t>> InputFromFile(const std::string& path, const spec::TensorDesc& t) {
  NPU_ASSIGN_OR_RETURN(const NpyArray a, ReadNpyFile(path));
  if (a.dtype != "<f4") return InputFromNpy(path, t);
  NPU_ASSIGN_OR_RETURN(const compiler::interp::HostTensor value, FloatInput(path));
  ir::Graph g;  // the tensor as the quantised graph's input it was compiled from
  const bool fp16 = t.dtype() == spec::FLOAT16;  // rounded to FP16 instead of quantised
  ir::Tensor* input = g.AddInput(t.name(), fp16 ? ir::DType::kFloat16 : ir::DType::kInt8,
                                 ir::Shape(t.shape().begin(), t.shape().end()),
                                 t.shape_size() == 4 ? ir::Layout::kNHWC : ir::Layout::kNone);
  if (!fp16) {
    input->quant().scale = {t.scale()};
    input->quant().zero_point = {t.zero_point()};
  }
  StatusOr<std::vector<int8_t>> q = compiler::qinterp::QuantizeInput(*input, value);
  if (!q.ok()) return q.status().WithContext(path);
  return q;
}

// Seeded int8 values: the cycles a binary takes do not depend on its data.
std::vector<int8_t> SeededInput(const spec::TensorDesc& t, uint32_t index) {
  std::mt19937 rng(kInputSeed + index);
  std::vector<int8_t> values(t.size_bytes());
  for (int8_t& v : values) v = static_cast<int8_t>(rng() & 0xFF);
  return values;
}

StatusOr<std::vector<std::vector<int8_t>>> Inputs(const Options& o, const spec::Program& p) {
  if (!o.inputs.empty() && o.inputs.size() != size_t(p.inputs_size())) {
    return InvalidArgument(fmt::format("{} takes {} inputs, {} --input files given", o.model,
                                       p.inputs_size(), o.inputs.size()));
  }
  std::vector<std::vector<int8_t>> inputs;
  for (int i = 0; i < p.inputs_size(); ++i) {
    if (o.inputs.empty()) {
      inputs.push_back(SeededInput(p.inputs(i), uint32_t(i)));
      continue;
    }
    NPU_ASSIGN_OR_RETURN(std::vector<int8_t> in, InputFromFile(o.inputs[i], p.inputs(i)));
    inputs.push_back(std::move(in));
  }
  return inputs;
}

// The integer reference's outputs for the binary's quantised graph, `batch` times over.
StatusOr<std::vector<std::vector<int8_t>>> ReferenceOutputs(
    const spec::Program& p, uint32_t batch, const std::vector<std::vector<int8_t>>& inputs) {
  NPU_ASSIGN_OR_RETURN(const ir::Graph graph, ir::ParseGraph(p.reference_graph()));
  NPU_TRY(compiler::qinterp::CheckQuantizedGraph(graph));
  NPU_ASSIGN_OR_RETURN(const ir::Graph batched, compiler::ReplicateBatch(graph, batch));
  NPU_ASSIGN_OR_RETURN(std::vector<std::vector<int8_t>> expected,
                       compiler::qinterp::InterpretQuantized(batched, inputs));
  bool fits = expected.size() == size_t(p.outputs_size());
  for (size_t o = 0; fits && o < expected.size(); ++o) {
    fits = expected[o].size() == p.outputs(int(o)).size_bytes();
  }
  if (!fits) return DataLoss("its outputs are not the program's outputs");
  return expected;
}

}  // namespace

bool IsBinaryPath(std::string_view model) {
  return model.size() > 5 && model.substr(model.size() - 5) == ".npub";
}

StatusOr<LoadedBinary> PrepareBinary(const Options& options) {
  NPU_TRY(RefuseCompileOptions(options));
  LoadedBinary b;
  PreparedWorkload& w = b.workload;
  NPU_ASSIGN_OR_RETURN(w.binary, spec::ReadWholeFile(options.model, "binary"));
  StatusOr<spec::Program> program = spec::OpenProgram(w.binary);
  if (!program.ok()) return program.status().WithContext(options.model);
  w.program = *std::move(program);
  w.model_checksum = spec::Crc64(w.binary);  // the model is the file
  StatusOr<spec::NpuConfig> config = BinaryConfig(options, w.program);
  if (!config.ok()) return config.status().WithContext(options.model);
  b.config = *std::move(config);
  // Refused now, as the firmware would refuse it, before inputs or a reference cost anything.
  NPU_TRY(fw::CheckProgram(w.program, fw::LimitsOf(b.config)).WithContext(options.model));
  w.name = w.program.model_name().empty() ? options.model : w.program.model_name();
  const uint32_t batch = std::max<uint32_t>(w.program.batch(), 1);
  if (batch > kMaxBatch) {
    return DataLoss(fmt::format("{}: batch {} (at most {})", options.model, batch, kMaxBatch));
  }
  w.batch = batch;
  NPU_ASSIGN_OR_RETURN(w.inputs, Inputs(options, w.program));
  if (options.timing_only) return b;
  if (w.program.reference_graph().empty()) {
    w.unchecked_reason = "no reference (compiled without --with-reference)";
    return b;
  }
  StatusOr<std::vector<std::vector<int8_t>>> expected =
      ReferenceOutputs(w.program, batch, w.inputs);
  if (!expected.ok()) {
    return expected.status().WithContext(options.model + ": the reference graph");
  }
  w.expected = *std::move(expected);
  return b;
}

}  // namespace npu::tools
