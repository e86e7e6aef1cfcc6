// Tests of the fuzzing machinery itself: the mutators keep inputs well formed and change them,
// the board's sparse DRAM behaves like memory, and the committed program seeds still load (they
// go stale when the binary format or the board's architecture changes).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "compiler/onnx/proto.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/memory_map.h"
#include "tests/fuzz/fuzz_board.h"
#include "tests/fuzz/load_on_board.h"
#include "tests/fuzz/onnx_front_end.h"
#include "tests/fuzz/onnx_model_mutator.h"
#include "tests/fuzz/proto_mutator.h"

namespace npu::fuzz {
namespace {

namespace fs = std::filesystem;

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<fs::path> SeedFiles(const std::string& kind) {
  std::vector<fs::path> files;
  for (const auto& e :
       fs::directory_iterator(fs::path(NPU_SOURCE_DIR) / "tests/fuzz/corpus" / kind)) {
    files.push_back(e.path());
  }
  return files;
}

const std::string kRegenerate =
    " (stale seed: regenerate with build/tests/fuzz/fuzz_make_program_seeds tests/fuzz/corpus)";

TEST(ProgramSeeds, EveryBinarySeedLoadsOnTheBoard) {
  const std::vector<fs::path> seeds = SeedFiles("binary");
  ASSERT_FALSE(seeds.empty());
  for (const fs::path& seed : seeds) {
    FuzzBoard board(FuzzBoardConfig());
    const Status loaded = LoadAndRunCpuSteps(board, ReadBytes(seed));
    EXPECT_TRUE(loaded.ok()) << seed << ": " << loaded.message() << kRegenerate;
  }
}

TEST(ProgramSeeds, EveryProgramSeedLoadsOnceSealed) {
  const std::vector<fs::path> seeds = SeedFiles("program");
  ASSERT_FALSE(seeds.empty());
  for (const fs::path& seed : seeds) {
    spec::Program program;
    ASSERT_TRUE(program.ParseFromString(ReadBytes(seed))) << seed;
    FuzzBoard board(FuzzBoardConfig());
    const Status loaded = LoadAndRunCpuSteps(board, SealForBoard(program));
    EXPECT_TRUE(loaded.ok()) << seed << ": " << loaded.message() << kRegenerate;
  }
}

TEST(FuzzBoard, DramReadsZeroUntilWrittenAndKeepsWritesAcrossPages) {
  FuzzBoard board(FuzzBoardConfig());
  std::vector<uint8_t> written(10000), read(10000, 0xAA);
  for (size_t i = 0; i < written.size(); ++i) written[i] = static_cast<uint8_t>(i * 7);
  ASSERT_TRUE(board.ReadBlock(spec::kDramBase + 4000, read.data(), read.size()));
  EXPECT_EQ(read, std::vector<uint8_t>(10000, 0));
  ASSERT_TRUE(board.WriteBlock(spec::kDramBase + 4000, written.data(), written.size()));
  ASSERT_TRUE(board.ReadBlock(spec::kDramBase + 4000, read.data(), read.size()));
  EXPECT_EQ(read, written);
}

TEST(FuzzBoard, RefusesAccessesOutsideDram) {
  FuzzBoard board(FuzzBoardConfig());
  uint8_t byte = 0;
  EXPECT_FALSE(board.ReadBlock(spec::kDramBase - 1, &byte, 1));
  EXPECT_FALSE(board.WriteBlock(spec::kDramBase + board.dram_bytes(), &byte, 1));
  EXPECT_TRUE(board.WriteBlock(spec::kDramBase + board.dram_bytes() - 1, &byte, 1));
}

TEST(ProtoMutator, ProgramsStayParseableAndMostMutationsChangeThem) {
  const std::string seed = ReadBytes(SeedFiles("program").front());
  int changed = 0;
  for (uint64_t i = 0; i < 1000; ++i) {
    spec::Program program;
    ASSERT_TRUE(program.ParseFromString(seed));
    ProtoMutator mutator(i);
    mutator.Mutate(program);
    const std::string bytes = program.SerializeAsString();
    spec::Program again;
    ASSERT_TRUE(again.ParseFromString(bytes)) << "seed " << i;
    changed += bytes != seed;
  }
  EXPECT_GT(changed, 800);
}

TEST(MutateSerialized, LeavesBytesThatDoNotParseToTheRawMutator) {
  std::vector<uint8_t> bytes = {0xFF, 0xFF, 0xFF};  // a truncated varint: no message parses
  int raw_calls = 0;
  const RawMutator raw = [&](uint8_t*, size_t size, size_t) {
    ++raw_calls;
    return size;
  };
  spec::Program scratch;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    MutateSerialized(scratch, bytes.data(), bytes.size(), 64, seed, raw,
                     [](google::protobuf::Message&, ProtoMutator&) { FAIL(); });
  }
  EXPECT_EQ(raw_calls, 20);
}

// The structure-aware ONNX target's inputs, deterministically: mutated models still parse, most
// differ from the seed, and import plus the front end answers every one without a finding.
TEST(OnnxModelMutator, MutatedModelsParseAndTheFrontEndAnswersThem) {
  const std::string seed =
      ReadBytes(fs::path(NPU_SOURCE_DIR) / "tests/onnx/data/small_cnn.op13.onnx");
  int changed = 0;
  for (uint64_t i = 0; i < 300; ++i) {
    ::onnx::ModelProto model;
    ASSERT_TRUE(model.ParseFromString(seed));
    ProtoMutator mutator(i);
    MutateOnnxModel(model, mutator);
    const std::string bytes = model.SerializeAsString();
    changed += bytes != seed;
    CheckOnnxFrontEnd(bytes);
  }
  EXPECT_GT(changed, 250);
}

}  // namespace
}  // namespace npu::fuzz
