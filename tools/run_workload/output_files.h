// The output tensors run_workload writes with --output-dir.
#pragma once

#include <string>
#include <vector>

#include "hw/spec/binary.pb.h"
#include "tools/common/output_files.h"

namespace npu::tools {

// <name>.npy (int8) and <name>.float.npy (dequantised) for each program output tensor, the name
// made safe for a file name (SafeFileName) and unique among the outputs.
void AddOutputTensors(const std::string& dir, const spec::Program& program,
                      const std::vector<std::vector<int8_t>>& outputs, OutputFiles& files);

}  // namespace npu::tools
