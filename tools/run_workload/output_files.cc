// Output tensors as .npy files.
#include "tools/run_workload/output_files.h"

#include <fmt/format.h>

#include <set>

#include "hw/spec/fp16.h"
#include "tools/common/npy.h"

namespace npu::tools {

void AddOutputTensors(const std::string& dir, const spec::Program& program,
                      const std::vector<std::vector<int8_t>>& outputs, OutputFiles& files) {
  std::set<std::string> taken;
  for (size_t i = 0; i < outputs.size() && i < size_t(program.outputs_size()); ++i) {
    const spec::TensorDesc& t = program.outputs(int(i));
    const std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
    const bool fp16 = t.dtype() == spec::FLOAT16;  // 2 bytes an element, read exactly
    std::vector<float> real(outputs[i].size() / (fp16 ? 2 : 1));
    for (size_t k = 0; k < real.size(); ++k) {
      real[k] = fp16 ? spec::Fp16ToFloat(spec::LoadFp16(outputs[i].data(), k))
                     : t.scale() * float(int32_t(outputs[i][k]) - t.zero_point());
    }
    std::string name = SafeFileName(t.name());
    if (!taken.insert(name).second) name = fmt::format("{}.{}", name, i);  // "a/b" and "a_b"
    const std::string base = fmt::format("{}/{}", dir, name);
    NpyArray raw = Int8Array(outputs[i], shape);
    if (fp16) raw.dtype = "<f2";  // the same bytes, as NumPy's float16
    files.Add(base + ".npy", EncodeNpy(raw));
    files.Add(base + ".float.npy", EncodeNpy(Float32Array(real, shape)));
  }
}

}  // namespace npu::tools
