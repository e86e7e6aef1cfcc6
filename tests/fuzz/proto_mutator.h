// Structure-aware mutation of protobuf messages through reflection, for fuzz targets whose input
// is a serialised message (ONNX models, NPU programs). libprotobuf-mutator does this but Debian
// does not package it; this is the small part the targets need: pick one field anywhere in the
// message tree and change it (a new value, cleared, an element added, removed or duplicated).
//
//   ProtoMutator mutator(seed);
//   mutator.Mutate(program);  // one random change; program still serialises
//
// Domain mutators (onnx_model_mutator.h) use its random helpers and add targeted changes.
#pragma once

#include <google/protobuf/message.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace npu::fuzz {

class ProtoMutator {
 public:
  explicit ProtoMutator(uint64_t seed) : rng_(seed) {}

  // One random change to one field of `message` or of a message inside it.
  void Mutate(google::protobuf::Message& message);

  // Random helpers. Below(n) is uniform in [0, n); n must be positive.
  uint64_t Below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  bool OneIn(uint64_t n) { return Below(n) == 0; }
  // Values that tend to break size and index arithmetic: 0, +-1, powers of two and their
  // neighbours, type limits, or `current` nudged a little.
  int64_t InterestingInt(int64_t current);
  double InterestingReal(double current);
  float InterestingFloat(float current);  // InterestingReal, infinite beyond float's range
  // A string seen in the message last mutated (names, to make references point elsewhere), an
  // empty one, or `current` cut or extended.
  std::string InterestingString(const std::string& current);
  // `current` (bytes: data, instruction words) cut, grown, with a bit flipped or a 32-bit
  // little-endian word overwritten by an InterestingInt.
  std::string InterestingBytes(const std::string& current);

 private:
  struct FieldRef {
    google::protobuf::Message* message;
    const google::protobuf::FieldDescriptor* field;
  };

  // Every field of `message` and of the messages set inside it; remembers the strings seen.
  void Collect(google::protobuf::Message& message, std::vector<FieldRef>& fields);
  void MutateSingular(const FieldRef& ref);
  void MutateRepeated(const FieldRef& ref);
  void MutateRepeatedElement(const FieldRef& ref, int index);
  void AddRepeatedElement(const FieldRef& ref);

  std::mt19937_64 rng_;
  std::vector<std::string> strings_;  // from the last Collect, at most kMaxStrings
};

// libFuzzer's own byte-level mutator (LLVMFuzzerMutate), or a replacement in tests.
using RawMutator = std::function<size_t(uint8_t* data, size_t size, size_t max_size)>;

// The body of an LLVMFuzzerCustomMutator for inputs that are serialised messages: parses `data`
// into `scratch` and applies `mutate`, then serialises back. Leaves the work to `raw` when the
// bytes do not parse, when the result would exceed `max_size`, and for one call in
// kRawMutationOneIn, so that byte-level damage (truncation, bad varints) is explored too.
// Returns the new size.
size_t MutateSerialized(
    google::protobuf::Message& scratch, uint8_t* data, size_t size, size_t max_size, uint64_t seed,
    const RawMutator& raw,
    const std::function<void(google::protobuf::Message&, ProtoMutator&)>& mutate);

}  // namespace npu::fuzz
