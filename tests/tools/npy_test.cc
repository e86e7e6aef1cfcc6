// The .npy decoder: round trips, and every malformed header refused naming the problem.
#include "tools/common/npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace npu::tools {
namespace {

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

// A .npy with `header` (padded as NumPy pads it) and `data_bytes` zero bytes of data.
std::string Npy(std::string header, size_t data_bytes) {
  header += std::string(63 - (10 + header.size()) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += char(header.size() & 0xFF);
  out += char(header.size() >> 8);
  return out + header + std::string(data_bytes, '\0');
}

std::string Error(const std::string& bytes) {
  StatusOr<NpyArray> a = DecodeNpy(bytes, "x.npy");
  EXPECT_FALSE(a.ok());
  return a.ok() ? "" : a.status().message();
}

TEST(Npy, RoundTrips) {
  const NpyArray a = Float32Array({1.5f, -2.0f, 0.0f, 3.25f, 4.0f, 5.0f}, {2, 3});
  StatusOr<NpyArray> b = DecodeNpy(EncodeNpy(a), "a");
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->dtype, "<f4");
  EXPECT_EQ(b->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(b->data, a.data);
}

TEST(Npy, AShapeWhoseSizeWouldWrapIsRefused) {
  // 2^32 x 2^32 x 16 float32: the byte count wraps to 0 in 64 bits; 64 bytes are held.
  EXPECT_HAS(Error(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, "
                       "4294967296, 16), }",
                       64)),
             "x.npy: .npy shape (4294967296, 4294967296, 16) needs more bytes than the 64 it "
             "holds");
  EXPECT_HAS(Error(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,"
                       "), }",
                       4)),
             "bad .npy shape");
  EXPECT_HAS(Error(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2x,), }", 8)),
             "bad .npy shape");
  EXPECT_HAS(Error(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 8)),
             "holds 8 data bytes, its shape needs 12");
}

TEST(Npy, NonFiniteValuesAreRefusedWithTheirIndex) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_HAS(
      FiniteFloats(Float32Array({0, 1, 2, nan, 4, 5}, {1, 2, 3}), "x.npy").status().message(),
      "x.npy: element [0, 1, 0] is nan; inputs must be finite");
  EXPECT_HAS(FiniteFloats(Float32Array({-inf}, {1}), "y.npy").status().message(),
             "element [0] is -inf");
  StatusOr<std::vector<float>> ok = FiniteFloats(Float32Array({1, 2}, {2}), "z.npy");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, (std::vector<float>{1, 2}));
}

TEST(Npy, EmptyArraysCopyNoBytes) {  // found by fuzz_npy (UBSan: memcpy from null)
  StatusOr<std::vector<float>> none = FiniteFloats(Float32Array({}, {0, 3}), "empty.npy");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_TRUE(Int8Array({}, {2, 0}).data.empty());
}

TEST(Npy, ADirectoryIsNotAnInputFile) {
  EXPECT_HAS(ReadNpyFile("/tmp").status().message(), "input file '/tmp' is a directory");
  EXPECT_HAS(ReadNpyFile("/nonexistent.npy").status().message(), "No such file or directory");
}

}  // namespace
}  // namespace npu::tools
