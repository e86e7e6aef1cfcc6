// A picture of where the cycles went, layer by layer: a horizontal bar per layer with its measured
// cycles split into the time its compute was busy and the rest, a tick at the compiler's
// prediction and one at the layer's roofline. Self-contained SVG; browsers open it.
#pragma once

#include <string>

#include "platform/report/run_report.h"

namespace npu::report {

std::string ToLayerChartSvg(const RunReport& report);

}  // namespace npu::report
