// The quantisation cache (compiler/network/quantize_cache.h): a second QuantizeModel of the same
// model, samples and options reuses the first one's quantised graph, exactly; anything else that
// decides the quantisation misses; a damaged or foreign entry is reported, ignored and replaced;
// a cache that cannot be written costs a notice, never the run.
#include "compiler/network/quantize_cache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "compiler/ir/printer.h"
#include "compiler/network/model_pipeline.h"

namespace npu::compiler {
namespace {

namespace fs = std::filesystem;

class QuantizeCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  ModelPipelineOptions Options(int samples = 2, std::string salt = "build 1") const {
    ModelPipelineOptions o;
    o.calibration_samples = samples;
    o.quantize_cache = {dir_.string(), std::move(salt)};
    return o;
  }
  QuantizedModel Quantize(const ModelPipelineOptions& o) const {
    StatusOr<QuantizedModel> m = QuantizeModel("small_cnn", o);
    if (!m.ok()) {
      ADD_FAILURE() << m.status().message();
      return QuantizedModel();
    }
    return *std::move(m);
  }
  std::vector<fs::path> Entries() const {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir_)) files.push_back(e.path());
    return files;
  }

  fs::path dir_;
};

TEST_F(QuantizeCacheTest, ASecondRunReusesTheQuantisedGraphExactly) {
  const QuantizedModel first = Quantize(Options());
  EXPECT_FALSE(first.quantized_from_cache);
  EXPECT_EQ(Entries().size(), 1u);
  const QuantizedModel second = Quantize(Options());
  EXPECT_TRUE(second.quantized_from_cache);
  EXPECT_TRUE(second.cache_notice.empty()) << second.cache_notice;
  // Printed in full, constants included: the same graph, not merely an equivalent one.
  EXPECT_TRUE(ir::PrintGraph(second.quantized) == ir::PrintGraph(first.quantized));
  EXPECT_FALSE(first.expected.empty());
  EXPECT_EQ(second.expected, first.expected);  // the integer reference: every weight the same
  EXPECT_EQ(second.inputs, first.inputs);
}

TEST_F(QuantizeCacheTest, OtherSamplesOptionsOrBuildsMiss) {
  Quantize(Options());
  EXPECT_FALSE(Quantize(Options(/*samples=*/3)).quantized_from_cache);
  ModelPipelineOptions minmax = Options();
  minmax.quantize.observer = quantize::Observer::kMinMax;
  EXPECT_FALSE(Quantize(minmax).quantized_from_cache);
  EXPECT_FALSE(Quantize(Options(2, "build 2")).quantized_from_cache);
  ModelPipelineOptions smaller = Options();
  smaller.image_size = 48;  // another float model
  EXPECT_FALSE(Quantize(smaller).quantized_from_cache);
  EXPECT_EQ(Entries().size(), 5u);
}

TEST_F(QuantizeCacheTest, ADamagedEntryIsReportedIgnoredAndReplaced) {
  const QuantizedModel first = Quantize(Options());
  const fs::path entry = Entries().at(0);
  {
    std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x5a');
  }
  const QuantizedModel again = Quantize(Options());
  EXPECT_FALSE(again.quantized_from_cache);
  EXPECT_NE(again.cache_notice.find("checksum"), std::string::npos) << again.cache_notice;
  EXPECT_NE(again.cache_notice.find(entry.string()), std::string::npos) << again.cache_notice;
  EXPECT_TRUE(ir::PrintGraph(again.quantized) == ir::PrintGraph(first.quantized));
  EXPECT_TRUE(Quantize(Options()).quantized_from_cache);  // replaced by a good entry
}

TEST_F(QuantizeCacheTest, ATruncatedOrForeignEntryIsIgnored) {
  Quantize(Options());
  const fs::path entry = Entries().at(0);
  fs::resize_file(entry, 10);
  QuantizedModel again = Quantize(Options());
  EXPECT_FALSE(again.quantized_from_cache);
  EXPECT_NE(again.cache_notice.find("not a cache entry"), std::string::npos) << again.cache_notice;
  // Another key's (valid) entry under this key's name.
  const fs::path other = dir_ / "other";
  fs::create_directories(other);
  ModelPipelineOptions o = Options(3);
  o.quantize_cache.dir = other.string();
  Quantize(o);
  fs::copy_file(fs::directory_iterator(other)->path(), entry, fs::copy_options::overwrite_existing);
  again = Quantize(Options());
  EXPECT_FALSE(again.quantized_from_cache);
  EXPECT_NE(again.cache_notice.find("another key"), std::string::npos) << again.cache_notice;
}

TEST_F(QuantizeCacheTest, ACacheThatCannotBeWrittenCostsANoticeNotTheRun) {
  fs::create_directories(dir_.parent_path());
  std::ofstream(dir_.string()) << "a file where the cache folder should be";
  const QuantizedModel m = Quantize(Options());
  EXPECT_FALSE(m.quantized_from_cache);
  EXPECT_FALSE(m.quantized.nodes().empty());
  EXPECT_NE(m.cache_notice.find("cannot create the quantisation cache"), std::string::npos)
      << m.cache_notice;
  fs::remove(dir_);
}

TEST_F(QuantizeCacheTest, NoFolderNoCache) {
  ModelPipelineOptions o = Options();
  o.quantize_cache.dir.clear();
  EXPECT_FALSE(Quantize(o).quantized_from_cache);
  EXPECT_FALSE(Quantize(o).quantized_from_cache);
  EXPECT_FALSE(fs::exists(dir_));
}

TEST(QuantizeCacheDir, FromNpuCacheDirThenXdgThenHome) {
  setenv("NPU_CACHE_DIR", "/a", 1);
  setenv("XDG_CACHE_HOME", "/b", 1);
  setenv("HOME", "/c", 1);
  EXPECT_EQ(DefaultQuantizeCacheDir(), "/a/quantized");
  unsetenv("NPU_CACHE_DIR");
  EXPECT_EQ(DefaultQuantizeCacheDir(), "/b/npu/quantized");
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(DefaultQuantizeCacheDir(), "/c/.cache/npu/quantized");
  unsetenv("HOME");
  EXPECT_EQ(DefaultQuantizeCacheDir(), "");
}

}  // namespace
}  // namespace npu::compiler
