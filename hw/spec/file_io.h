// Reading a file the way every tool must: the whole file or an error naming what the file is
// for, its path and the operating system's reason; a directory is refused, not read as an empty
// file. The config parser, the ONNX importer, the .npy decoder and the binary loader read
// through it.
#pragma once

#include <string>
#include <string_view>

#include "hw/spec/status.h"

namespace npu::spec {

// `what` says what the file is for ("config file", "ONNX model", "input file").
StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what);

// Writes `contents` to a temporary file beside `path` and renames it into place, so a reader
// never sees a partial file; creates the parent directories. The error names `what`, the path
// and the operating system's reason, and leaves no temporary file behind.
Status WriteFileAtomically(const std::string& path, std::string_view contents,
                           const std::string& what);

}  // namespace npu::spec
