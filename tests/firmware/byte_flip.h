// Random byte flips in a valid program, re-sealed with a valid checksum so that they get past the
// envelope to the deep checks. Flips go where structure is (instructions, tensor descriptions,
// steps, CPU op attributes, layer infos), not into constant data, where they would only change
// values.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "hw/spec/binary.pb.h"

namespace npu::testing {

class ByteFlipper {
 public:
  explicit ByteFlipper(const spec::Program& valid);
  // The valid program's bytes with 1 to 4 random bytes changed, sealed as a file.
  std::string Next(std::mt19937& rng) const;

 private:
  std::string bytes_;                // the serialised program
  std::vector<uint32_t> positions_;  // where flips may go
};

}  // namespace npu::testing
