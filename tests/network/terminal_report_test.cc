// The terminal report's line per fused group says what the group keeps on chip: a row-strip
// group or a pair's channel groups their intermediate, a convolution alone split into channel
// groups (compiler/network/channel_groups.h) its groups' outputs, each pooled while on chip.
#include "platform/report/terminal_report.h"

#include <gtest/gtest.h>

#include <string>

namespace npu::report {
namespace {

LayerReport Layer(const std::string& name, const std::string& op, const std::string& group,
                  uint32_t part) {
  LayerReport l;
  l.name = name, l.op = op, l.channel_group = group, l.channel_part = part;
  return l;
}

TEST(TerminalReport, SaysWhatEachChannelGroupSplitKeepsOnChip) {
  RunReport r;
  r.layers = {Layer("expand#ch0", "conv2d", "expand+dw", 0),
              Layer("dw#ch0", "depthwise_conv2d", "expand+dw", 0),
              Layer("head#ch0", "conv2d", "head", 0), Layer("pool#ch0", "global_average_pool",
                                                            "head", 0)};
  r.groups = {{"expand+dw", "channel_groups", 0, 1, 2}, {"head", "channel_groups", 0, 1, 2}};
  const std::string text = FormatTerminalReport(r);
  EXPECT_NE(text.find("fused in channel groups (intermediate on chip): expand+dw: 1 groups"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("fused in channel groups (output pooled on chip): head: 1 groups"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace npu::report
