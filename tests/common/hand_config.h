// The config the unit tests' hand-computed figures assume: the default config without the
// depthwise co-design it has since issue 15 (32 vector lanes, one row and one column group, no depthwise
// datapath, no layer normaliser). The formulas under test hold on any config; pinning this one keeps each test's
// arithmetic, written out in its comments, valid when the default moves.
#pragma once

#include "hw/spec/config.h"

namespace npu::testing {

inline spec::NpuConfig HandConfig() {
  spec::NpuConfig c = spec::DefaultConfig();
  c.mutable_act()->set_lanes(32);
  c.mutable_mac()->set_row_groups(1);
  c.mutable_mac()->set_col_groups(1);
  c.mutable_act()->set_depthwise_taps(0);
  c.mutable_act()->set_norm_dividers(0);
  return c;
}

}  // namespace npu::testing
