// Output tensors as .npy files.
#include "tools/run_workload/output_files.h"

#include <fmt/format.h>

#include <set>

#include "tools/common/npy.h"

namespace npu::tools {

void AddOutputTensors(const std::string& dir, const spec::Program& program,
                      const std::vector<std::vector<int8_t>>& outputs, OutputFiles& files) {
  std::set<std::string> taken;
  for (size_t i = 0; i < outputs.size() && i < size_t(program.outputs_size()); ++i) {
    const spec::TensorDesc& t = program.outputs(int(i));
    const std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
    std::vector<float> real(outputs[i].size());
    for (size_t k = 0; k < real.size(); ++k) {
      real[k] = t.scale() * float(int32_t(outputs[i][k]) - t.zero_point());
    }
    std::string name = SafeFileName(t.name());
    if (!taken.insert(name).second) name = fmt::format("{}.{}", name, i);  // "a/b" and "a_b"
    const std::string base = fmt::format("{}/{}", dir, name);
    files.Add(base + ".npy", EncodeNpy(Int8Array(outputs[i], shape)));
    files.Add(base + ".float.npy", EncodeNpy(Float32Array(real, shape)));
  }
}

}  // namespace npu::tools
