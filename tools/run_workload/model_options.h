// The options that decide what a model compiles to, shared by run_workload and npu_compile so
// that the same words give the same binary: --config, --set, --calib, --batch, --image-size,
// --precision, --cpu-ops, --no-cpu-fallback, --no-quant-cache.
#pragma once

#include <boost/program_options.hpp>
#include <string>

#include "tools/run_workload/options.h"

namespace npu::tools {

boost::program_options::options_description ModelOptionsDescription();

// Copies them from `vm` into `options`. Returns an exit code to stop with after printing why
// ("<tool>: ..." on stderr; 2 for a bad value), or -1 to go on.
int TakeModelOptions(const std::string& tool, const boost::program_options::variables_map& vm,
                     Options& options);

}  // namespace npu::tools
