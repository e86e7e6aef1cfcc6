// run_workload --points: one model run on many configs, prepared once. A sweep over hardware
// fields changes nothing that comes before compilation (front end, quantisation, calibration, the
// input and the integer reference), so those run once in this process; each point then compiles
// and simulates in a child process of its own (SystemC elaborates once per process), up to --jobs
// at a time.
//
// The points file: one point per line, `NAME KEY=VALUE ...` (config overrides on top of --config
// and --set); blank lines and lines starting with '#' are skipped. NAME is [A-Za-z0-9_.-]+, unique.
// Each point writes REPORT_DIR/NAME.json (the report, as --json writes it) or, if it cannot run
// (a config its model does not fit, say), REPORT_DIR/NAME.error (the message); standard output
// gets `NAME EXIT_STATUS WALL_SECONDS` as each point finishes, for a driver to follow.
//
// Every point's config is resolved before anything runs or is written: a config file that does not
// load, an unknown field or a value that does not parse is an error (exit 2) naming the line. A
// config that parses but breaks a rule (an SRAM too small for the array) is that point's
// NAME.error, and the other points run, as a sweep over a grid expects. Exit status 0 if every
// point passed (or ran timing-only), 1 if any failed or could not run.
#pragma once

#include <string>
#include <vector>

#include "hw/spec/status.h"
#include "tools/run_workload/options.h"

namespace npu::tools {

struct Point {
  std::string name;
  std::vector<std::string> overrides;  // KEY=VALUE
  int line = 0;
};

// The points of `text` (read from `path`, named in errors).
StatusOr<std::vector<Point>> ParsePoints(const std::string& text, const std::string& path);

// Runs the batch `options` describe; returns the exit status.
int RunBatch(const Options& options);

}  // namespace npu::tools
