// Byte flips.
#include "tests/firmware/byte_flip.h"

#include "hw/spec/binary.h"

namespace npu::testing {

ByteFlipper::ByteFlipper(const spec::Program& valid) : bytes_(valid.SerializeAsString()) {
  std::vector<bool> data(bytes_.size(), false);
  for (const spec::Segment& s : valid.constants()) {
    const size_t at = bytes_.find(s.data());
    if (s.data().empty() || at == std::string::npos) continue;
    for (size_t i = at; i < at + s.data().size(); ++i) data[i] = true;
  }
  for (uint32_t i = 0; i < bytes_.size(); ++i) {
    if (!data[i]) positions_.push_back(i);
  }
}

std::string ByteFlipper::Next(std::mt19937& rng) const {
  std::string bytes = bytes_;
  const int flips = 1 + int(rng() % 4);
  for (int f = 0; f < flips; ++f) {
    char& b = bytes[positions_[rng() % positions_.size()]];
    b = rng() % 2 ? char(b ^ (1 << (rng() % 8))) : char(rng());  // one bit, or any byte
  }
  spec::BinaryEnvelope e;
  e.set_magic(std::string(spec::kBinaryMagic));
  e.set_format_version(spec::kBinaryFormatVersion);
  e.set_program(bytes);
  e.set_checksum(spec::Crc64(bytes));
  return e.SerializeAsString();
}

}  // namespace npu::testing
