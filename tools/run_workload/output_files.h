// Writing run_workload's files. Each file is written to a temporary name and renamed into place,
// so a file is either complete or absent, never partial.
#pragma once

#include <string>
#include <vector>

#include "hw/spec/binary.pb.h"
#include "hw/spec/status.h"

namespace npu::tools {

Status WriteFileAtomically(const std::string& path, const std::string& contents);

// <name>.npy (int8) and <name>.float.npy (dequantised) for each program output tensor.
Status WriteOutputs(const std::string& dir, const spec::Program& program,
                    const std::vector<std::vector<int8_t>>& outputs);

}  // namespace npu::tools
