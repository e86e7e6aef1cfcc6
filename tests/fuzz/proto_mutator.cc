// The reflection-based mutator: collect every field of the message tree, pick one, change it.
#include "tests/fuzz/proto_mutator.h"

#include <cstring>
#include <limits>

namespace npu::fuzz {
namespace {

namespace pb = google::protobuf;
using Cpp = pb::FieldDescriptor::CppType;

constexpr size_t kMaxStrings = 256;
constexpr uint64_t kRawMutationOneIn = 8;
constexpr uint64_t kMaxMutationsPerCall = 4;

// Integer fields of every width go through int64 (uint64 and narrower types wrap, as intended).
int64_t GetInt(const pb::Message& m, const pb::FieldDescriptor* f, int index) {
  const pb::Reflection& r = *m.GetReflection();
  const bool rep = f->is_repeated();
  switch (f->cpp_type()) {
    case Cpp::CPPTYPE_INT32:
      return rep ? r.GetRepeatedInt32(m, f, index) : r.GetInt32(m, f);
    case Cpp::CPPTYPE_INT64:
      return rep ? r.GetRepeatedInt64(m, f, index) : r.GetInt64(m, f);
    case Cpp::CPPTYPE_UINT32:
      return rep ? r.GetRepeatedUInt32(m, f, index) : r.GetUInt32(m, f);
    case Cpp::CPPTYPE_UINT64:
      return static_cast<int64_t>(rep ? r.GetRepeatedUInt64(m, f, index) : r.GetUInt64(m, f));
    default:
      return 0;
  }
}

void SetInt(pb::Message& m, const pb::FieldDescriptor* f, int index, int64_t v) {
  const pb::Reflection& r = *m.GetReflection();
  const bool rep = f->is_repeated();
  switch (f->cpp_type()) {
    case Cpp::CPPTYPE_INT32:
      rep ? r.SetRepeatedInt32(&m, f, index, static_cast<int32_t>(v))
          : r.SetInt32(&m, f, static_cast<int32_t>(v));
      return;
    case Cpp::CPPTYPE_INT64:
      rep ? r.SetRepeatedInt64(&m, f, index, v) : r.SetInt64(&m, f, v);
      return;
    case Cpp::CPPTYPE_UINT32:
      rep ? r.SetRepeatedUInt32(&m, f, index, static_cast<uint32_t>(v))
          : r.SetUInt32(&m, f, static_cast<uint32_t>(v));
      return;
    case Cpp::CPPTYPE_UINT64:
      rep ? r.SetRepeatedUInt64(&m, f, index, static_cast<uint64_t>(v))
          : r.SetUInt64(&m, f, static_cast<uint64_t>(v));
      return;
    default:
      return;
  }
}

// A double outside float's range converts to infinity (the cast itself would be undefined).
float ToFloat(double v) {
  if (v > std::numeric_limits<float>::max()) return std::numeric_limits<float>::infinity();
  if (v < std::numeric_limits<float>::lowest()) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

bool IsBytes(const pb::FieldDescriptor* f) { return f->type() == pb::FieldDescriptor::TYPE_BYTES; }

bool IsInt(Cpp t) {
  return t == Cpp::CPPTYPE_INT32 || t == Cpp::CPPTYPE_INT64 || t == Cpp::CPPTYPE_UINT32 ||
         t == Cpp::CPPTYPE_UINT64;
}

}  // namespace

int64_t ProtoMutator::InterestingInt(int64_t current) {
  const uint64_t c = static_cast<uint64_t>(current);  // unsigned: nudging wraps, never overflows
  const uint64_t bit = uint64_t{1} << Below(63);
  switch (Below(14)) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return -1;
    case 3:
      return static_cast<int64_t>(c + Below(33) - 16);
    case 4:
      return static_cast<int64_t>(c * 2);
    case 5:
      return current / 2;
    case 6:
      return static_cast<int64_t>(bit);
    case 7:
      return static_cast<int64_t>(bit - 1);
    case 8:
      return static_cast<int64_t>(bit + 1);
    case 9:
      return std::numeric_limits<int32_t>::max();
    case 10:
      return std::numeric_limits<int32_t>::min();
    case 11:
      return OneIn(2) ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    case 12:
      return static_cast<int64_t>(rng_());
    default:
      return static_cast<int64_t>(Below(256));
  }
}

double ProtoMutator::InterestingReal(double current) {
  switch (Below(12)) {
    case 0:
      return 0.0;
    case 1:
      return -0.0;
    case 2:
      return OneIn(2) ? 1.0 : -1.0;
    case 3:
      return std::numeric_limits<double>::quiet_NaN();
    case 4:
      return OneIn(2) ? std::numeric_limits<double>::infinity()
                      : -std::numeric_limits<double>::infinity();
    case 5:
      return std::numeric_limits<float>::denorm_min();
    case 6:
      return OneIn(2) ? 1e30 : 1e-30;
    case 7:
      return current * 2;
    case 8:
      return current / 2;
    case 9:
      return -current;
    case 10:
      return current + 1;
    default:
      return std::uniform_real_distribution<double>(-1000, 1000)(rng_);
  }
}

float ProtoMutator::InterestingFloat(float current) { return ToFloat(InterestingReal(current)); }

std::string ProtoMutator::InterestingString(const std::string& current) {
  switch (Below(5)) {
    case 0:
      if (!strings_.empty()) return strings_[Below(strings_.size())];
      return current;
    case 1:
      return "";
    case 2:
      return current.substr(0, Below(current.size() + 1));
    case 3:
      return current + static_cast<char>(Below(128));  // ASCII: proto3 wants UTF-8
    default:
      return current + current;
  }
}

std::string ProtoMutator::InterestingBytes(const std::string& current) {
  std::string bytes = current;
  if (bytes.empty() || OneIn(4)) {
    bytes.resize(Below(bytes.size() + 64));
    return bytes;
  }
  if (OneIn(2)) {
    bytes[Below(bytes.size())] ^= static_cast<char>(1 << Below(8));
    return bytes;
  }
  const size_t at = Below(bytes.size());
  const uint32_t word = static_cast<uint32_t>(InterestingInt(0));
  for (size_t i = 0; i < 4 && at + i < bytes.size(); ++i) {
    bytes[at + i] = static_cast<char>(word >> (8 * i));
  }
  return bytes;
}

void ProtoMutator::Collect(pb::Message& message, std::vector<FieldRef>& fields) {
  const pb::Descriptor& type = *message.GetDescriptor();
  const pb::Reflection& r = *message.GetReflection();
  for (int i = 0; i < type.field_count(); ++i) {
    const pb::FieldDescriptor* f = type.field(i);
    fields.push_back({&message, f});
    if (f->cpp_type() == Cpp::CPPTYPE_STRING && !IsBytes(f) && strings_.size() < kMaxStrings) {
      if (!f->is_repeated()) {
        strings_.push_back(r.GetString(message, f));
      } else {
        for (int k = 0; k < r.FieldSize(message, f) && strings_.size() < kMaxStrings; ++k) {
          strings_.push_back(r.GetRepeatedString(message, f, k));
        }
      }
    }
    if (f->cpp_type() != Cpp::CPPTYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      for (int k = 0; k < r.FieldSize(message, f); ++k) {
        Collect(*r.MutableRepeatedMessage(&message, f, k), fields);
      }
    } else if (r.HasField(message, f)) {
      Collect(*r.MutableMessage(&message, f), fields);
    }
  }
}

void ProtoMutator::Mutate(pb::Message& message) {
  std::vector<FieldRef> fields;
  strings_.clear();
  Collect(message, fields);
  if (fields.empty()) return;
  const FieldRef& ref = fields[Below(fields.size())];
  if (ref.field->is_repeated()) {
    MutateRepeated(ref);
  } else {
    MutateSingular(ref);
  }
}

void ProtoMutator::MutateSingular(const FieldRef& ref) {
  pb::Message& m = *ref.message;
  const pb::FieldDescriptor* f = ref.field;
  const pb::Reflection& r = *m.GetReflection();
  if (f->has_presence() && r.HasField(m, f) && OneIn(6)) {
    r.ClearField(&m, f);
    return;
  }
  const Cpp t = f->cpp_type();
  if (IsInt(t)) {
    SetInt(m, f, -1, InterestingInt(GetInt(m, f, -1)));
  } else if (t == Cpp::CPPTYPE_DOUBLE) {
    r.SetDouble(&m, f, InterestingReal(r.GetDouble(m, f)));
  } else if (t == Cpp::CPPTYPE_FLOAT) {
    r.SetFloat(&m, f, InterestingFloat(r.GetFloat(m, f)));
  } else if (t == Cpp::CPPTYPE_BOOL) {
    r.SetBool(&m, f, !r.GetBool(m, f));
  } else if (t == Cpp::CPPTYPE_ENUM) {
    const pb::EnumDescriptor* e = f->enum_type();
    r.SetEnum(&m, f, e->value(static_cast<int>(Below(e->value_count()))));
  } else if (t == Cpp::CPPTYPE_STRING) {
    const std::string& current = r.GetString(m, f);
    r.SetString(&m, f, IsBytes(f) ? InterestingBytes(current) : InterestingString(current));
  } else if (t == Cpp::CPPTYPE_MESSAGE) {
    if (r.HasField(m, f)) {
      r.ClearField(&m, f);
    } else {
      r.MutableMessage(&m, f);  // present with every field at its default
    }
  }
}

void ProtoMutator::MutateRepeatedElement(const FieldRef& ref, int index) {
  pb::Message& m = *ref.message;
  const pb::FieldDescriptor* f = ref.field;
  const pb::Reflection& r = *m.GetReflection();
  const Cpp t = f->cpp_type();
  if (IsInt(t)) {
    SetInt(m, f, index, InterestingInt(GetInt(m, f, index)));
  } else if (t == Cpp::CPPTYPE_DOUBLE) {
    r.SetRepeatedDouble(&m, f, index, InterestingReal(r.GetRepeatedDouble(m, f, index)));
  } else if (t == Cpp::CPPTYPE_FLOAT) {
    r.SetRepeatedFloat(&m, f, index, InterestingFloat(r.GetRepeatedFloat(m, f, index)));
  } else if (t == Cpp::CPPTYPE_BOOL) {
    r.SetRepeatedBool(&m, f, index, !r.GetRepeatedBool(m, f, index));
  } else if (t == Cpp::CPPTYPE_ENUM) {
    const pb::EnumDescriptor* e = f->enum_type();
    r.SetRepeatedEnum(&m, f, index, e->value(static_cast<int>(Below(e->value_count()))));
  } else if (t == Cpp::CPPTYPE_STRING) {
    const std::string& current = r.GetRepeatedString(m, f, index);
    r.SetRepeatedString(&m, f, index,
                        IsBytes(f) ? InterestingBytes(current) : InterestingString(current));
  }
  // A message element's own fields are collected separately.
}

void ProtoMutator::AddRepeatedElement(const FieldRef& ref) {
  pb::Message& m = *ref.message;
  const pb::FieldDescriptor* f = ref.field;
  const pb::Reflection& r = *m.GetReflection();
  switch (f->cpp_type()) {
    case Cpp::CPPTYPE_MESSAGE:
      r.AddMessage(&m, f);
      return;
    case Cpp::CPPTYPE_DOUBLE:
      r.AddDouble(&m, f, 0);
      break;
    case Cpp::CPPTYPE_FLOAT:
      r.AddFloat(&m, f, 0);
      break;
    case Cpp::CPPTYPE_BOOL:
      r.AddBool(&m, f, false);
      break;
    case Cpp::CPPTYPE_ENUM:
      r.AddEnum(&m, f, f->enum_type()->value(0));
      break;
    case Cpp::CPPTYPE_STRING:
      r.AddString(&m, f, "");
      break;
    case Cpp::CPPTYPE_INT32:
      r.AddInt32(&m, f, 0);
      break;
    case Cpp::CPPTYPE_INT64:
      r.AddInt64(&m, f, 0);
      break;
    case Cpp::CPPTYPE_UINT32:
      r.AddUInt32(&m, f, 0);
      break;
    case Cpp::CPPTYPE_UINT64:
      r.AddUInt64(&m, f, 0);
      break;
  }
  MutateRepeatedElement(ref, r.FieldSize(m, f) - 1);  // then give it an interesting value
}

void ProtoMutator::MutateRepeated(const FieldRef& ref) {
  pb::Message& m = *ref.message;
  const pb::FieldDescriptor* f = ref.field;
  const pb::Reflection& r = *m.GetReflection();
  const int size = r.FieldSize(m, f);
  const int pick = size > 0 ? static_cast<int>(Below(size)) : 0;
  switch (size == 0 ? 0 : Below(6)) {
    case 0:
      AddRepeatedElement(ref);
      return;
    case 1:  // remove one
      r.SwapElements(&m, f, pick, size - 1);
      r.RemoveLast(&m, f);
      return;
    case 2:  // a message duplicated at the end (a second node, segment, step); a scalar changed
      if (f->cpp_type() == Cpp::CPPTYPE_MESSAGE) {
        r.AddMessage(&m, f)->CopyFrom(r.GetRepeatedMessage(m, f, pick));
      } else {
        MutateRepeatedElement(ref, pick);
      }
      return;
    case 3:
      r.SwapElements(&m, f, pick, static_cast<int>(Below(size)));
      return;
    case 4:
      if (OneIn(4)) r.ClearField(&m, f);
      return;
    default:
      MutateRepeatedElement(ref, pick);
      return;
  }
}

size_t MutateSerialized(pb::Message& scratch, uint8_t* data, size_t size, size_t max_size,
                        uint64_t seed, const RawMutator& raw,
                        const std::function<void(pb::Message&, ProtoMutator&)>& mutate) {
  ProtoMutator mutator(seed);
  if (mutator.OneIn(kRawMutationOneIn) || !scratch.ParseFromArray(data, static_cast<int>(size))) {
    return raw(data, size, max_size);
  }
  const uint64_t count = 1 + mutator.Below(kMaxMutationsPerCall);
  for (uint64_t i = 0; i < count; ++i) mutate(scratch, mutator);
  std::string out;
  if (!scratch.SerializeToString(&out) || out.size() > max_size) return raw(data, size, max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

}  // namespace npu::fuzz
