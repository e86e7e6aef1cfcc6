// The architecture config: default, files, overrides, and the validation rules.
#include "hw/spec/config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "hw/spec/area_model.h"
#include "hw/spec/builtin_configs.h"
#include "hw/spec/utf8.h"

namespace npu::spec {
namespace {

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// Validate(config with one override) fails and the message mentions `needle`.
void ExpectRefused(const std::string& assignment, const std::string& needle) {
  NpuConfig c = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(c, assignment).ok()) << assignment;
  const Status s = Validate(c);
  ASSERT_FALSE(s.ok()) << assignment << " was accepted";
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

TEST(Config, DefaultIsValid) { EXPECT_TRUE(Validate(DefaultConfig()).ok()); }

TEST(Config, ANameThatIsNotUtf8IsRefused) {  // fuzz_config: its binaries did not parse
  NpuConfig c = DefaultConfig();
  c.set_name(
      "e\xcd"
      "dge");
  const Status s = Validate(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("name: must be UTF-8"), std::string::npos) << s.message();
  c.set_name("edge \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");  // two-, three- and four-byte forms
  EXPECT_TRUE(Validate(c).ok());
}

TEST(Utf8, RefusesMalformedSequences) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain"));
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));          // truncated
  EXPECT_FALSE(IsValidUtf8("\x80"));              // a lone continuation byte
}

TEST(Config, OverrideSetsNestedFieldsAndEnums) {
  NpuConfig c = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(c, "mac.rows=64").ok());
  ASSERT_TRUE(ApplyOverride(c, "mac.dataflow=OUTPUT_STATIONARY").ok());
  ASSERT_TRUE(ApplyOverride(c, "dram.size_bytes=268435456").ok());
  EXPECT_EQ(c.mac().rows(), 64u);
  EXPECT_EQ(c.mac().dataflow(), OUTPUT_STATIONARY);
  EXPECT_EQ(c.dram().size_bytes(), 268435456u);
}

TEST(Config, OverrideErrorsNameTheProblem) {
  NpuConfig c = DefaultConfig();
  EXPECT_NE(ApplyOverride(c, "mac.rowz=4").message().find("no field 'rowz'"), std::string::npos);
  EXPECT_NE(ApplyOverride(c, "mac.rows=-4").message().find("not an unsigned"), std::string::npos);
  EXPECT_NE(ApplyOverride(c, "mac.rows=4x").message().find("not an unsigned"), std::string::npos);
  EXPECT_NE(ApplyOverride(c, "mac=4").message().find("group of fields"), std::string::npos);
  EXPECT_NE(ApplyOverride(c, "mac.dataflow=DIAGONAL").message().find("WEIGHT_STATIONARY"),
            std::string::npos);
  EXPECT_NE(ApplyOverride(c, "mac.rows").message().find("key=value"), std::string::npos);
  EXPECT_NE(ApplyOverride(c, "mac.rows.x=1").message().find("is a value"), std::string::npos);
  // Values beyond the field's range are refused, not wrapped (2^64 + 16 once became 16).
  EXPECT_NE(ApplyOverride(c, "mac.rows=18446744073709551632").message().find("not an unsigned"),
            std::string::npos);
  EXPECT_NE(ApplyOverride(c, "mac.rows=4294967296").message().find("not an unsigned 32-bit"),
            std::string::npos);
  EXPECT_NE(ApplyOverride(c, "dram.size_bytes=18446744073709551616").message().find("64-bit"),
            std::string::npos);
  EXPECT_TRUE(ApplyOverride(c, "dram.size_bytes=18446744073709551615").ok());
  EXPECT_NE(ApplyOverride(c, "mac.rows=+4").message().find("not an unsigned"), std::string::npos);
}

TEST(Config, RulesNameFieldAndRule) {
  ExpectRefused("mac.rows=0", "mac.rows = 0: must be between 1 and 1024");
  ExpectRefused("mac.cols=2000", "mac.cols = 2000");
  ExpectRefused("sram.banks=0", "sram.banks = 0");
  ExpectRefused("sram.banks=3", "multiple of banks x bank_width_bytes");
  ExpectRefused("sram.size_bytes=1024", "smaller than one minimal double-buffered tile");
  ExpectRefused("mac.acc_buffer_bytes=1000", "mac.acc_buffer_bytes = 1000");
  ExpectRefused("dram.bytes_per_cycle=0", "dram.bytes_per_cycle = 0");
  ExpectRefused("dma.burst_bytes=8", "dma.burst_bytes = 8");
  ExpectRefused("dma.outstanding_bursts=0", "dma.outstanding_bursts");
  ExpectRefused("act.lanes=0", "act.lanes");
  ExpectRefused("clock_mhz=0", "clock_mhz");
  ExpectRefused("cmd.queue_depth=0", "cmd.queue_depth");
  ExpectRefused("mac.row_groups=0", "mac.row_groups = 0: must be 1 to 16");
  ExpectRefused("mac.row_groups=17", "mac.row_groups = 17");
  ExpectRefused("mac.col_groups=0", "mac.col_groups = 0: must be 1 to 16 and divide mac.cols");
  ExpectRefused("mac.col_groups=3", "mac.col_groups = 3");  // 32 columns: no equal thirds
  ExpectRefused("act.depthwise_taps=65", "act.depthwise_taps = 65");
}

// The depthwise datapath: out of the fingerprint at 0 (configs without it keep theirs), in it
// otherwise; each tap of each lane adds a multiplier, an adder and a weight register.
TEST(Config, DepthwiseTapsFingerprintAndArea) {
  NpuConfig a = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(a, "tech.node=NODE_45NM").ok());
  ASSERT_TRUE(ApplyOverride(a, "act.depthwise_taps=0").ok());
  NpuConfig cleared = a;
  cleared.mutable_act()->clear_depthwise_taps();
  EXPECT_EQ(Fingerprint(a), Fingerprint(cleared));
  EXPECT_EQ(DefaultConfig().act().depthwise_taps(), 9u);
  NpuConfig b = a;
  ASSERT_TRUE(ApplyOverride(b, "act.depthwise_taps=9").ok());
  EXPECT_TRUE(Validate(b).ok());
  EXPECT_NE(Fingerprint(a), Fingerprint(b));
  const double grown =
      UnitAreas(b)[int(AreaUnit::kVectorUnit)] - UnitAreas(a)[int(AreaUnit::kVectorUnit)];
  // 45 nm: 64 lanes x 9 taps x (282 + 137 + 8 x 4.522) um^2.
  EXPECT_NEAR(grown, 64.0 * 9 * (282 + 137 + 8 * 4.522) / 1e6, 1e-9);
}

// Depthwise row groups: out of the fingerprint at 1 (binaries from before keep theirs), in it
// otherwise; each group past the first adds an adder per column.
TEST(Config, RowGroupsFingerprintAndArea) {
  NpuConfig a = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(a, "tech.node=NODE_45NM").ok());
  ASSERT_TRUE(ApplyOverride(a, "mac.row_groups=1").ok());  // the default has 3
  NpuConfig cleared = a;
  cleared.mutable_mac()->clear_row_groups();
  EXPECT_EQ(Fingerprint(a), Fingerprint(cleared));
  NpuConfig b = a;
  ASSERT_TRUE(ApplyOverride(b, "mac.row_groups=3").ok());
  EXPECT_TRUE(Validate(b).ok());
  EXPECT_NE(Fingerprint(a), Fingerprint(b));
  const double grown = UnitAreas(b)[int(AreaUnit::kMacArray)] - UnitAreas(a)[int(AreaUnit::kMacArray)];
  EXPECT_NEAR(grown, 2.0 * 32 * 137 / 1e6, 1e-12);  // 45 nm default: 2 adders x 32 columns
}

// Column groups: out of the fingerprint at 1, in it otherwise; each group past the first adds an
// input injection point: a 2:1 mux on each row's 8 bits and the rows' skew registers.
TEST(Config, ColGroupsFingerprintAndArea) {
  NpuConfig a = DefaultConfig();
  EXPECT_EQ(a.mac().col_groups(), 2u);
  ASSERT_TRUE(ApplyOverride(a, "tech.node=NODE_45NM").ok());
  ASSERT_TRUE(ApplyOverride(a, "mac.col_groups=1").ok());
  NpuConfig cleared = a;
  cleared.mutable_mac()->clear_col_groups();
  EXPECT_EQ(Fingerprint(a), Fingerprint(cleared));
  NpuConfig b = a;
  ASSERT_TRUE(ApplyOverride(b, "mac.col_groups=4").ok());
  EXPECT_TRUE(Validate(b).ok());
  EXPECT_NE(Fingerprint(a), Fingerprint(b));
  const double grown = UnitAreas(b)[int(AreaUnit::kMacArray)] - UnitAreas(a)[int(AreaUnit::kMacArray)];
  // 45 nm, 32 rows: 3 points x (32 x 8 mux bits at half a flip-flop + 32 x 31 / 2 skew bytes).
  EXPECT_NEAR(grown, 3.0 * (32 * 8 * 0.5 + 496 * 8) * 4.522 / 1e6, 1e-12);
}

// A DRAM standard with one dram.device override: refused, naming the field and the rule.
void ExpectDramRefused(const std::string& assignment, const std::string& needle) {
  NpuConfig c = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(c, "dram.standard=DDR4_3200").ok());
  ASSERT_TRUE(ApplyOverride(c, assignment).ok()) << assignment;
  const Status s = Validate(c);
  ASSERT_FALSE(s.ok()) << assignment << " was accepted";
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

TEST(Config, DramStandardsAreValidAndImpossibleDevicesNamed) {
  for (const char* s : {"IDEAL", "DDR4_3200", "LPDDR4_4266", "LPDDR5_6400", "HBM2"}) {
    NpuConfig c = DefaultConfig();
    ASSERT_TRUE(ApplyOverride(c, std::string("dram.standard=") + s).ok());
    EXPECT_TRUE(Validate(c).ok()) << s << ": " << Validate(c).message();
  }
  ExpectDramRefused("dram.device.ras_ck=10", "dram.device.ras_ck = 10: must be at least rcd_ck");
  ExpectDramRefused("dram.device.bank_groups=3", "dram.device.bank_groups = 3: must divide");
  ExpectDramRefused("dram.device.page_bytes=100", "dram.device.page_bytes = 100");
  ExpectDramRefused("dram.device.refi_ck=500", "dram.device.refi_ck = 500: must exceed");
  ExpectDramRefused("dram.device.channels=0", "dram.device.channels = 0");
  ExpectDramRefused("dram.device.ccd_l_ck=2", "dram.device.ccd_l_ck = 2");
  ExpectDramRefused("dram.device.bus_width_bits=12", "dram.device.bus_width_bits = 12");
  ExpectDramRefused("dram.device.tck_ps=0.01", "dram.device.tck_ps");
  // IDEAL ignores the device: a nonsensical one is not an error.
  NpuConfig ideal = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(ideal, "dram.device.banks=0").ok());
  EXPECT_TRUE(Validate(ideal).ok());
}

TEST(Config, TextFileMergesOntoDefault) {
  const std::string path = WriteTemp("small.textproto", "name: 'small'\nmac { rows: 8 cols: 8 }\n");
  StatusOr<NpuConfig> c = ResolveConfig(path, {"sram.banks=8"});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->name(), "small");
  EXPECT_EQ(c->mac().rows(), 8u);
  EXPECT_EQ(c->sram().banks(), 8u);
  EXPECT_EQ(c->dram().latency_cycles(), DefaultConfig().dram().latency_cycles());
}

TEST(Config, JsonFileIsRead) {
  const std::string path =
      WriteTemp("c.json", R"({"mac": {"rows": 16, "dataflow": "OUTPUT_STATIONARY"}})");
  StatusOr<NpuConfig> c = ResolveConfig(path, {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->mac().rows(), 16u);
  EXPECT_EQ(c->mac().dataflow(), OUTPUT_STATIONARY);
}

TEST(Config, BadFilesGiveClearErrors) {
  const Status missing = ResolveConfig("/nonexistent/x.json", {}).status();
  EXPECT_EQ(missing.kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.message().find("No such file or directory"), std::string::npos)
      << missing.message();  // the OS's reason
  const Status directory = ResolveConfig(std::filesystem::temp_directory_path(), {}).status();
  EXPECT_NE(directory.message().find("is a directory, not a file"), std::string::npos)
      << directory.message();
  const std::string text = WriteTemp("bad.textproto", "mac { rows: 8\n");
  EXPECT_NE(ResolveConfig(text, {}).status().message().find("bad.textproto"), std::string::npos);
  const std::string json = WriteTemp("bad.json", "{\"mac\": {\"rowz\": 1}}");
  EXPECT_NE(ResolveConfig(json, {}).status().message().find("bad.json"), std::string::npos);
  const std::string invalid = WriteTemp("zero.textproto", "mac { rows: 0 }");
  EXPECT_NE(ResolveConfig(invalid, {}).status().message().find("mac.rows = 0"), std::string::npos);
}

TEST(Config, BuiltinConfigsAreValidAndSelectableByName) {
  for (const NamedConfig& c : BuiltinConfigs()) {
    EXPECT_TRUE(Validate(c.config).ok()) << c.name;
    StatusOr<NpuConfig> picked = ResolveConfig(c.name, {"dram.latency_cycles=50"});
    ASSERT_TRUE(picked.ok()) << picked.status().message();
    EXPECT_EQ(picked->name(), c.name);
    EXPECT_EQ(picked->mac().rows(), c.config.mac().rows());
    EXPECT_EQ(picked->dram().latency_cycles(), 50u);
  }
  EXPECT_EQ(BuiltinConfigs().front().name, "default");
  EXPECT_EQ(ResolveConfig("nonexistent", {}).status().kind(), ErrorKind::kNotFound);
}

TEST(Config, FingerprintCoversHardwareNotName) {
  NpuConfig a = DefaultConfig(), b = DefaultConfig();
  b.set_name("renamed");
  EXPECT_EQ(Fingerprint(a), Fingerprint(b));
  ASSERT_TRUE(ApplyOverride(b, "dram.latency_cycles=101").ok());
  EXPECT_NE(Fingerprint(a), Fingerprint(b));
}

}  // namespace
}  // namespace npu::spec
