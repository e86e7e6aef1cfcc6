// One compiled workload run on one config, checked and reported: what run_workload does after
// compiling, for a single run and for each point of a batch (batch.h).
#pragma once

#include <string>

#include "compiler/network/model_pipeline.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"
#include "platform/report/run_report.h"
#include "tools/run_workload/options.h"
#include "tools/run_workload/workload_source.h"

namespace npu::tools {

// int8 against float on the input the runs use, as the report shows it; empty for a model
// without a float graph (single layers, binaries) or runs that compute no data. It depends on the
// model only, so a batch measures it once for all its points.
struct AccuracyReport {
  std::string json, text;
};
StatusOr<AccuracyReport> MeasureAccuracy(const compiler::QuantizedModel* model);

// Runs `w` on `config`, checks its outputs, and writes the files `options` ask for (all or none).
// Returns the report (status "fail" if an output differs); an error if the run or a file failed.
StatusOr<report::RunReport> SimulateAndReport(const Options& options, const spec::NpuConfig& config,
                                              const PreparedWorkload& w,
                                              const AccuracyReport& accuracy,
                                              report::Provenance provenance);

}  // namespace npu::tools
