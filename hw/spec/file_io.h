// Reading a file the way every tool must: the whole file or an error naming what the file is
// for, its path and the operating system's reason; a directory is refused, not read as an empty
// file. The config parser, the ONNX importer, the .npy decoder and the binary loader read
// through it.
#pragma once

#include <string>

#include "hw/spec/status.h"

namespace npu::spec {

// `what` says what the file is for ("config file", "ONNX model", "input file").
StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what);

}  // namespace npu::spec
