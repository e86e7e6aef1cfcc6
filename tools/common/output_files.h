// The files a tool writes, all or nothing. A tool adds each file's contents as it builds them and
// commits once at the end: every regular target is written to a temporary file beside it and
// renamed into place only when all are written, so a failed run leaves no file behind, new or
// partial. A target that is not a regular file (a FIFO, a character device, "-" for standard
// output) cannot be replaced, only written: it is written directly, after the others are in
// place, and never renamed over.
#pragma once

#include <string>
#include <vector>

#include "hw/spec/status.h"

namespace npu::tools {

class OutputFiles {
 public:
  // A file to write at Commit. "-" is standard output.
  void Add(std::string path, std::string contents);
  // The directories to create at Commit (and remove again if they stay empty on failure).
  void AddDirectory(std::string path);
  bool WritesStandardOutput() const;

  // Checks every target first (no directory in the way, a parent that exists or is created),
  // then writes. Errors name the file and the operating system's reason.
  Status Commit();

 private:
  struct File {
    std::string path, contents;
  };
  std::vector<File> files_;
  std::vector<std::string> directories_;
};

// A file name made from a name in the model (a tensor's): every character outside [A-Za-z0-9._-]
// becomes '_', and a name that would be "", "." or ".." or begins with '.' gets a '_' in front,
// so it names a file inside the directory it is joined to, never a path out of it.
std::string SafeFileName(const std::string& name);

}  // namespace npu::tools
