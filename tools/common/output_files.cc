// OutputFiles and SafeFileName.
#include "tools/common/output_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace npu::tools {
namespace {

namespace fs = std::filesystem;

std::string Reason() { return std::strerror(errno); }

// Whether `path` exists and is not a regular file: written in place, never replaced.
bool IsSpecialTarget(const std::string& path) {
  if (path == "-") return true;
  struct stat st;
  return stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

Status WriteAll(int fd, const std::string& contents, const std::string& path) {
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return DataLoss(fmt::format("cannot write '{}': {}", path, Reason()));
    done += size_t(n);
  }
  return Status::Ok();
}

// A temporary file beside `path`, written whole; its name, or an error (nothing left behind).
StatusOr<std::string> WriteTemporary(const std::string& path, const std::string& contents) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string name = (dir / fmt::format(".{}.XXXXXX", target.filename().string())).string();
  const int fd = mkstemp(name.data());
  if (fd < 0) return NotFound(fmt::format("cannot write '{}': {}", path, Reason()));
  Status s = WriteAll(fd, contents, path);
  if (close(fd) != 0 && s.ok()) s = DataLoss(fmt::format("cannot write '{}': {}", path, Reason()));
  if (s.ok() && fchmodat(AT_FDCWD, name.c_str(), 0644, 0) != 0) {
    s = DataLoss(fmt::format("cannot write '{}': {}", path, Reason()));
  }
  if (!s.ok()) {
    std::remove(name.c_str());
    return s;
  }
  return name;
}

Status WriteInPlace(const std::string& path, const std::string& contents) {
  if (path == "-") {
    std::cout.write(contents.data(), std::streamsize(contents.size()));
    std::cout.flush();
    return std::cout ? Status::Ok() : DataLoss("cannot write to standard output");
  }
  const int fd = open(path.c_str(), O_WRONLY);
  if (fd < 0) return NotFound(fmt::format("cannot write '{}': {}", path, Reason()));
  Status s = WriteAll(fd, contents, path);
  close(fd);
  return s;
}

// The target must not be a directory, and its parent must be one (after the directories are
// created).
Status CheckTarget(const std::string& path) {
  if (path == "-") return Status::Ok();
  std::error_code error;
  if (fs::is_directory(path, error)) {
    return InvalidArgument(fmt::format("cannot write '{}': it is a directory", path));
  }
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, error)) {
    return NotFound(fmt::format("cannot write '{}': no directory '{}'", path, parent.string()));
  }
  return Status::Ok();
}

}  // namespace

void OutputFiles::Add(std::string path, std::string contents) {
  files_.push_back({std::move(path), std::move(contents)});
}

void OutputFiles::AddDirectory(std::string path) { directories_.push_back(std::move(path)); }

bool OutputFiles::WritesStandardOutput() const {
  for (const File& f : files_) {
    if (f.path == "-") return true;
  }
  return false;
}

Status OutputFiles::Commit() {
  std::vector<fs::path> created;  // removed again, innermost first, if the commit fails
  std::vector<std::string> temporaries;
  auto undo = [&](Status s) {
    for (const std::string& t : temporaries) std::remove(t.c_str());
    for (auto it = created.rbegin(); it != created.rend(); ++it) {
      std::error_code ignored;
      fs::remove(*it, ignored);  // only if empty
    }
    return s;
  };
  for (const std::string& dir : directories_) {
    std::error_code error;
    for (fs::path p = fs::path(dir); !p.empty() && !fs::exists(p, error); p = p.parent_path()) {
      created.insert(created.begin(), p);
      if (p == p.parent_path()) break;
    }
    fs::create_directories(dir, error);
    if (error) return undo(NotFound(fmt::format("cannot create '{}': {}", dir, error.message())));
  }
  for (const File& f : files_) {
    if (Status s = CheckTarget(f.path); !s.ok()) return undo(s);
  }
  std::vector<const File*> special;
  std::vector<std::pair<std::string, const File*>> staged;
  for (const File& f : files_) {
    if (IsSpecialTarget(f.path)) {
      special.push_back(&f);
      continue;
    }
    StatusOr<std::string> t = WriteTemporary(f.path, f.contents);
    if (!t.ok()) return undo(t.status());
    temporaries.push_back(*t);
    staged.emplace_back(*t, &f);
  }
  for (const auto& [temporary, file] : staged) {
    std::error_code error;
    fs::rename(temporary, file->path, error);
    if (error) {
      return undo(NotFound(fmt::format("cannot write '{}': {}", file->path, error.message())));
    }
  }
  for (const File* f : special) NPU_TRY(WriteInPlace(f->path, f->contents));
  return Status::Ok();
}

std::string SafeFileName(const std::string& name) {
  std::string safe;
  for (char ch : name) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
    safe += keep ? ch : '_';
  }
  if (safe.empty() || safe.front() == '.') safe = fmt::format("_{}", safe);
  return safe;
}

}  // namespace npu::tools
