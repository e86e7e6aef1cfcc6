// Atomic file writes and output tensors as .npy.
#include "tools/run_workload/output_files.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tools/common/npy.h"

namespace npu::tools {

Status WriteFileAtomically(const std::string& path, const std::string& contents) {
  const std::string temporary = path + ".partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return NotFound(fmt::format("cannot write '{}'", path));
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out) {
      std::remove(temporary.c_str());
      return Internal(fmt::format("writing '{}' failed", path));
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::remove(temporary.c_str());
    return Internal(fmt::format("cannot rename into '{}': {}", path, error.message()));
  }
  return Status::Ok();
}

Status WriteOutputs(const std::string& dir, const spec::Program& program,
                    const std::vector<std::vector<int8_t>>& outputs) {
  for (size_t i = 0; i < outputs.size() && i < size_t(program.outputs_size()); ++i) {
    const spec::TensorDesc& t = program.outputs(int(i));
    const std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
    std::vector<float> real(outputs[i].size());
    for (size_t k = 0; k < real.size(); ++k) {
      real[k] = t.scale() * float(int32_t(outputs[i][k]) - t.zero_point());
    }
    const std::string base = fmt::format("{}/{}", dir, t.name());
    NPU_TRY(WriteFileAtomically(base + ".npy", EncodeNpy(Int8Array(outputs[i], shape))));
    NPU_TRY(WriteFileAtomically(base + ".float.npy", EncodeNpy(Float32Array(real, shape))));
  }
  return Status::Ok();
}

}  // namespace npu::tools
