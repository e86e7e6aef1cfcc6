// Provenance: the command line as a shell would take it back, and the build's identity.
#include "tools/common/provenance.h"

#include <gtest/gtest.h>

#include <regex>

#include "tools/common/build_info.h"

namespace npu::tools {
namespace {

TEST(Provenance, CommandLineIsQuotedOnlyWhereAShellNeedsIt) {
  const char* args[] = {"run_workload", "my model.onnx", "--set", "mac.rows=16", "it's", ""};
  EXPECT_EQ(ShellQuotedCommandLine(6, const_cast<char**>(args)),
            "run_workload 'my model.onnx' --set mac.rows=16 'it'\\''s' ''");
}

TEST(Provenance, NamesTheBuildTheTimeAndTheHost) {
  const report::Provenance p = CurrentProvenance("tool --x");
  const BuildInfo& b = GetBuildInfo();
  EXPECT_EQ(p.version, b.version);
  EXPECT_EQ(p.commit, b.commit);
  EXPECT_TRUE(std::regex_match(p.commit, std::regex("[0-9a-f]{40}|unknown"))) << p.commit;
  EXPECT_TRUE(std::regex_match(p.timestamp, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << p.timestamp;
  EXPECT_FALSE(p.host.empty());
  EXPECT_EQ(p.command_line, "tool --x");
  EXPECT_TRUE(
      std::regex_match(VersionLine("t"), std::regex(R"(t \d+\.\d+\.\d+ \(commit )"
                                                    R"(([0-9a-f]{12}|unknown)(\+dirty)?, \w+\))")))
      << VersionLine("t");
}

}  // namespace
}  // namespace npu::tools
