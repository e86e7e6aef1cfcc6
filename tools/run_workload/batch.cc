// run_workload --points (batch.h).
#include "tools/run_workload/batch.h"

#include <fmt/format.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "hw/spec/file_io.h"
#include "tools/common/output_files.h"
#include "tools/common/provenance.h"
#include "tools/run_workload/binary_source.h"
#include "tools/run_workload/simulate.h"
#include "tools/run_workload/workload_source.h"

namespace npu::tools {
namespace {

bool IsPointName(const std::string& name) {
  if (name.empty() || name[0] == '.') return false;
  for (const char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') {
      return false;
    }
  }
  return true;
}

struct ResolvedPoint {
  Point point;
  spec::NpuConfig config;
  Status invalid;  // a config that parses but breaks a rule: the point's error, not the batch's
};

// Every point's config, resolved and validated before anything runs. A config file that does not
// load, or an unknown field or a value that does not parse, refuses the batch; a combination the
// rules refuse (an SRAM too small for the array, say) is that point's outcome, as a sweep over a
// grid expects.
StatusOr<std::vector<ResolvedPoint>> ResolvePoints(const Options& options) {
  NPU_ASSIGN_OR_RETURN(const std::string text,
                       spec::ReadWholeFile(options.points_file, "points file"));
  NPU_ASSIGN_OR_RETURN(std::vector<Point> points, ParsePoints(text, options.points_file));
  NPU_ASSIGN_OR_RETURN(const spec::NpuConfig base,
                       spec::LoadWithOverrides(options.config_file, options.overrides));
  std::vector<ResolvedPoint> resolved;
  for (Point& p : points) {
    const std::string where = fmt::format("{}:{}: point '{}'", options.points_file, p.line, p.name);
    ResolvedPoint r{std::move(p), base, Status::Ok()};
    for (const std::string& o : r.point.overrides) {
      NPU_TRY(spec::ApplyOverride(r.config, o).WithContext(where));
    }
    r.invalid = spec::Validate(r.config).WithContext(where);
    resolved.push_back(std::move(r));
  }
  return resolved;
}

std::string PointPath(const Options& options, const std::string& name, const char* extension) {
  return options.report_dir + "/" + name + extension;
}

// REPORT_DIR/NAME.error: why the point could not run.
Status WritePointError(const Options& options, const std::string& name,
                       const std::string& message) {
  OutputFiles error;
  error.Add(PointPath(options, name, ".error"), message + "\n");
  return error.Commit();
}

// The child's whole life: compile, simulate, report, exit. Never returns.
[[noreturn]] void RunPointInChild(const Options& batch, const WorkloadSource& source,
                                  const AccuracyReport& accuracy, const ResolvedPoint& p,
                                  pid_t batch_pid) {
  // Killed with the batch (a `kill -9` of it or of the sweep above it leaves no orphan), also if
  // the batch died before this took effect.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != batch_pid) _exit(kExitError);
  Options options = batch;
  options.quiet = true;
  options.json_file = PointPath(batch, p.point.name, ".json");
  options.command_line = fmt::format("{}  # point {} {}", batch.command_line, p.point.name,
                                     fmt::join(p.point.overrides, " "));
  StatusOr<report::RunReport> r = [&]() -> StatusOr<report::RunReport> {
    NPU_ASSIGN_OR_RETURN(PreparedWorkload w, CompileWorkload(source, options, p.config));
    w.binary = spec::SealProgram(w.program);
    return SimulateAndReport(options, p.config, w, accuracy,
                             CurrentProvenance(options.command_line));
  }();
  if (!r.ok()) {
    if (!WritePointError(batch, p.point.name, r.status().message()).ok()) _exit(kExitError + 1);
    _exit(kExitError);
  }
  _exit(r->check.status == "fail" ? kExitFail : 0);
}

// A child that died without saying why (a signal, a crash) leaves the reason for the driver.
void RecordAbnormalEnd(const Options& options, const std::string& name, int wait_status) {
  if (!WIFSIGNALED(wait_status)) return;
  (void)WritePointError(options, name,
                        fmt::format("point '{}' ended by signal {} ({})", name,
                                    WTERMSIG(wait_status), strsignal(WTERMSIG(wait_status))));
}

// A finished point: `NAME EXIT_STATUS WALL_SECONDS` on standard output for the driver, and
// progress on standard error.
void ReportFinished(const Options& options, const std::string& name, int code, double seconds,
                    size_t finished, size_t total) {
  std::cout << fmt::format("{} {} {:.3f}", name, code, seconds) << std::endl;
  if (options.quiet) return;
  std::cerr << fmt::format("  [{}/{}] {}: {}\n", finished, total, name,
                           code == 0           ? "done"
                           : code == kExitFail ? "FAIL"
                                               : "error");
}

struct Running {
  std::string name;
  std::chrono::steady_clock::time_point start;
};

// Forks the points, at most `jobs` at a time; reports each as it ends. Returns the exit status.
int RunAll(const Options& options, const WorkloadSource& source, const AccuracyReport& accuracy,
           const std::vector<ResolvedPoint>& points) {
  std::map<pid_t, Running> running;
  size_t next = 0, finished = 0;
  int exit_status = 0;
  while (finished < points.size()) {
    while (next < points.size() && running.size() < size_t(options.jobs)) {
      const ResolvedPoint& p = points[next++];
      for (const char* ext : {".json", ".error"}) {
        std::filesystem::remove(PointPath(options, p.point.name, ext));
      }
      if (!p.invalid.ok()) {  // the rules refuse its config: an error, no process started
        (void)WritePointError(options, p.point.name, p.invalid.message());
        ReportFinished(options, p.point.name, kExitError, 0.0, ++finished, points.size());
        exit_status = kExitFail;
        continue;
      }
      std::cout.flush();
      std::cerr.flush();
      const pid_t self = getpid(), pid = fork();
      if (pid < 0) {
        std::cerr << "run_workload: cannot start a point: " << std::strerror(errno) << "\n";
        return kExitError;
      }
      if (pid == 0) RunPointInChild(options, source, accuracy, p, self);
      running[pid] = {p.point.name, std::chrono::steady_clock::now()};
    }
    if (running.empty()) continue;  // the rest could not run: recorded, nothing to wait for
    int wait_status = 0;
    const pid_t pid = waitpid(-1, &wait_status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      std::cerr << "run_workload: waiting for points: " << std::strerror(errno) << "\n";
      return kExitError;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Running done = it->second;
    running.erase(it);
    ++finished;
    RecordAbnormalEnd(options, done.name, wait_status);
    const int code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : kExitError;
    if (code != 0) exit_status = kExitFail;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - done.start).count();
    ReportFinished(options, done.name, code, seconds, finished, points.size());
  }
  return exit_status;
}

}  // namespace

StatusOr<std::vector<Point>> ParsePoints(const std::string& text, const std::string& path) {
  std::vector<Point> points;
  std::set<std::string> names;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    std::istringstream words(line);
    Point p;
    p.line = number;
    if (!(words >> p.name) || p.name[0] == '#') continue;
    if (!IsPointName(p.name)) {
      return InvalidArgument(
          fmt::format("{}:{}: point name '{}': use letters, digits, '_', '-' and '.', not first",
                      path, number, p.name));
    }
    if (!names.insert(p.name).second) {
      return InvalidArgument(fmt::format("{}:{}: point '{}' named twice", path, number, p.name));
    }
    for (std::string word; words >> word;) {
      if (word.find('=') == std::string::npos || word[0] == '=') {
        return InvalidArgument(
            fmt::format("{}:{}: point '{}': '{}' is not KEY=VALUE", path, number, p.name, word));
      }
      p.overrides.push_back(word);
    }
    points.push_back(std::move(p));
  }
  if (points.empty()) return InvalidArgument(fmt::format("{}: no points", path));
  return points;
}

int RunBatch(const Options& options) {
  if (IsBinaryPath(options.model)) {
    return ReportError(InvalidArgument(fmt::format(
        "--points compiles a model for each point; '{}' is compiled already", options.model)));
  }
  StatusOr<std::vector<ResolvedPoint>> points = ResolvePoints(options);
  if (!points.ok()) return ReportError(points.status());
  if (!options.quiet) {
    std::cerr << fmt::format("preparing {} for {} points ...\n", options.model, points->size());
  }
  StatusOr<WorkloadSource> source = LoadWorkloadSource(options);
  if (!source.ok()) return ReportError(source.status());
  StatusOr<AccuracyReport> accuracy = MeasureAccuracy(source->model.get());
  if (!accuracy.ok()) return ReportError(accuracy.status());
  std::error_code error;
  std::filesystem::create_directories(options.report_dir, error);
  if (error) {
    return ReportError(
        InvalidArgument(fmt::format("--report-dir '{}': {}", options.report_dir, error.message())));
  }
  // The preparation's freed memory goes back to the system: points allocating it again would
  // otherwise copy each page from this process (copy-on-write faults), several thousand a point.
  malloc_trim(0);
  return RunAll(options, *source, *accuracy, *points);
}

}  // namespace npu::tools
