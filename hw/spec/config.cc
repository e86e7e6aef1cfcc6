// Loading, overriding and fingerprinting the architecture config. Validation is in
// config_validate.cc.
#include "hw/spec/config.h"

#include <fmt/format.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "hw/spec/binary.h"
#include "hw/spec/builtin_configs.h"
#include "hw/spec/file_io.h"

namespace npu::spec {
namespace {

namespace pb = google::protobuf;

// Collects text-format parse errors with their line and column.
class TextErrors : public pb::io::ErrorCollector {
 public:
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    text_ += fmt::format("{}line {} column {}: {}", text_.empty() ? "" : "; ", line + 1, column + 1,
                         message);
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

StatusOr<NpuConfig> ParseConfigText(const std::string& path, const std::string& text) {
  NpuConfig file_config;
  if (EndsWith(path, ".json")) {
    pb::util::Status status = pb::util::JsonStringToMessage(text, &file_config);
    if (!status.ok()) {
      return InvalidArgument(fmt::format("config file '{}': {}", path, status.ToString()));
    }
    return file_config;
  }
  pb::TextFormat::Parser parser;
  TextErrors errors;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, &file_config)) {
    return InvalidArgument(fmt::format("config file '{}': {}", path, errors.text()));
  }
  return file_config;
}

template <class T>
bool ParseUnsigned(std::string_view text, T* out) {
  // from_chars reports a value beyond T's range instead of wrapping; digits only (no sign).
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return error == std::errc() && end == text.data() + text.size();
}

std::string EnumNames(const pb::EnumDescriptor& e) {
  std::string names;
  for (int i = 1; i < e.value_count(); ++i) {  // value 0 is UNSPECIFIED
    names += fmt::format("{}{}", i > 1 ? ", " : "", e.value(i)->name());
  }
  return names;
}

// Sets one scalar field from its textual value; the caller resolved `field` on `message`.
Status SetScalar(pb::Message& message, const pb::FieldDescriptor& field, std::string_view key,
                 std::string_view value) {
  const pb::Reflection& reflection = *message.GetReflection();
  auto bad_value = [&](std::string_view expected) {
    return InvalidArgument(fmt::format("--set {}: '{}' is not {}", key, value, expected));
  };
  switch (field.cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_UINT32: {
      uint32_t v;
      if (!ParseUnsigned(value, &v)) return bad_value("an unsigned 32-bit integer");
      reflection.SetUInt32(&message, &field, v);
      return Status::Ok();
    }
    case pb::FieldDescriptor::CPPTYPE_UINT64: {
      uint64_t v;
      if (!ParseUnsigned(value, &v)) return bad_value("an unsigned 64-bit integer");
      reflection.SetUInt64(&message, &field, v);
      return Status::Ok();
    }
    case pb::FieldDescriptor::CPPTYPE_DOUBLE: {
      double v = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (value.empty() || error != std::errc() || end != value.data() + value.size() ||
          !std::isfinite(v)) {
        return bad_value("a finite number");
      }
      reflection.SetDouble(&message, &field, v);
      return Status::Ok();
    }
    case pb::FieldDescriptor::CPPTYPE_STRING:
      reflection.SetString(&message, &field, std::string(value));
      return Status::Ok();
    case pb::FieldDescriptor::CPPTYPE_ENUM: {
      const pb::EnumValueDescriptor* e = field.enum_type()->FindValueByName(std::string(value));
      if (e == nullptr || e->number() == 0) {
        return bad_value(fmt::format("one of {}", EnumNames(*field.enum_type())));
      }
      reflection.SetEnum(&message, &field, e);
      return Status::Ok();
    }
    default:
      return InvalidArgument(fmt::format("--set {}: field type cannot be set", key));
  }
}

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

}  // namespace

NpuConfig DefaultConfig() {
  NpuConfig c;
  c.set_name("default");
  c.set_clock_mhz(1000);
  c.mutable_mac()->set_rows(32);
  c.mutable_mac()->set_cols(32);
  c.mutable_mac()->set_dataflow(WEIGHT_STATIONARY);
  c.mutable_mac()->set_fold_pipelining(DOUBLE_BUFFERED);
  c.mutable_mac()->set_int4_weight_rate(2);
  c.mutable_mac()->set_fp16_mac_cycles(2);
  c.mutable_mac()->set_row_groups(3);  // a 3x3 depthwise kernel's 9 rows three times
  c.mutable_mac()->set_col_groups(2);  // a fold of 16 columns or fewer twice
  c.mutable_mac()->set_acc_buffer_bytes(128 * 1024);
  c.mutable_sram()->set_size_bytes(1024 * 1024);
  c.mutable_sram()->set_banks(16);
  c.mutable_sram()->set_bank_width_bytes(16);
  c.mutable_dma()->set_load_channels(2);
  c.mutable_dma()->set_store_channels(1);
  c.mutable_dma()->set_burst_bytes(256);
  c.mutable_dma()->set_outstanding_bursts(16);
  c.mutable_dram()->set_bytes_per_cycle(32);
  c.mutable_dram()->set_latency_cycles(100);
  c.mutable_dram()->set_size_bytes(uint64_t{1} << 30);
  c.mutable_act()->set_lanes(64);
  c.mutable_act()->set_pipeline_cycles(4);
  c.mutable_act()->set_fp16_element_cycles(2);
  c.mutable_act()->set_depthwise_taps(9);  // a 3x3 window a lane per cycle
  c.mutable_act()->set_norm_dividers(16);
  c.mutable_cmd()->set_queue_depth(32);
  c.mutable_cmd()->set_fetch_batch(16);
  c.mutable_cpu()->set_core(LARGE_CORE);
  c.mutable_tech()->set_node(NODE_28NM);
  return c;
}

StatusOr<NpuConfig> LoadConfigFile(const std::string& path) {
  NPU_ASSIGN_OR_RETURN(const std::string text, ReadWholeFile(path, "config file"));
  return LoadConfigText(path, text);
}

StatusOr<NpuConfig> LoadConfigText(const std::string& path, const std::string& text) {
  NPU_ASSIGN_OR_RETURN(const NpuConfig file_config, ParseConfigText(path, text));
  NpuConfig config = DefaultConfig();
  config.MergeFrom(file_config);
  return config;
}

Status ApplyOverride(NpuConfig& config, std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return InvalidArgument(
        fmt::format("--set '{}': expected key=value, e.g. mac.rows=64", assignment));
  }
  const std::string_view key = assignment.substr(0, eq);
  const std::string_view value = assignment.substr(eq + 1);
  pb::Message* message = &config;
  const std::vector<std::string_view> path = Split(key, '.');
  for (size_t i = 0; i < path.size(); ++i) {
    const pb::Descriptor& type = *message->GetDescriptor();
    const pb::FieldDescriptor* field = type.FindFieldByName(std::string(path[i]));
    if (field == nullptr) {
      return InvalidArgument(
          fmt::format("--set {}: no field '{}' in {}", key, path[i], type.name()));
    }
    const bool last = i + 1 == path.size();
    if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (last) {
        return InvalidArgument(fmt::format("--set {}: is a group of fields; name one", key));
      }
      message = message->GetReflection()->MutableMessage(message, field);
      continue;
    }
    if (!last) {
      return InvalidArgument(
          fmt::format("--set {}: '{}' is a value, not a group of fields", key, path[i]));
    }
    return SetScalar(*message, *field, key, value);
  }
  return InvalidArgument(fmt::format("--set '{}': empty key", assignment));
}

namespace {

StatusOr<NpuConfig> LoadOnto(const NpuConfig& base, const std::string& file,
                             const std::vector<std::string>& overrides) {
  NpuConfig config = base;
  if (const NpuConfig* builtin = FindBuiltinConfig(file)) {
    config = *builtin;
  } else if (!file.empty()) {
    NPU_ASSIGN_OR_RETURN(config, LoadConfigFile(file));
  }
  for (const std::string& assignment : overrides) NPU_TRY(ApplyOverride(config, assignment));
  return config;
}

}  // namespace

StatusOr<NpuConfig> LoadWithOverrides(const std::string& file,
                                      const std::vector<std::string>& overrides) {
  return LoadOnto(DefaultConfig(), file, overrides);
}

StatusOr<NpuConfig> ResolveConfig(const std::string& file,
                                  const std::vector<std::string>& overrides) {
  return ResolveConfig(DefaultConfig(), file, overrides);
}

StatusOr<NpuConfig> ResolveConfig(const NpuConfig& base, const std::string& file,
                                  const std::vector<std::string>& overrides) {
  NPU_ASSIGN_OR_RETURN(NpuConfig config, LoadOnto(base, file, overrides));
  NPU_TRY(Validate(config));
  return config;
}

uint64_t Fingerprint(const NpuConfig& config) {
  NpuConfig hardware = config;
  hardware.clear_name();
  hardware.clear_cpu();   // the control core's speed does not change what a binary does
  hardware.clear_tech();  // nor does the process: energy and area are accounting
  // Fields added later, at the value the hardware had before them, serialise as absent: binaries
  // compiled before keep their fingerprint.
  if (hardware.mac().fold_pipelining() == DOUBLE_BUFFERED) {
    hardware.mutable_mac()->clear_fold_pipelining();
  }
  if (hardware.mac().int4_weight_rate() == 2) hardware.mutable_mac()->clear_int4_weight_rate();
  if (hardware.mac().fp16_mac_cycles() == 2) hardware.mutable_mac()->clear_fp16_mac_cycles();
  if (hardware.mac().row_groups() == 1) hardware.mutable_mac()->clear_row_groups();
  if (hardware.mac().col_groups() == 1) hardware.mutable_mac()->clear_col_groups();
  if (hardware.act().fp16_element_cycles() == 2) hardware.mutable_act()->clear_fp16_element_cycles();
  if (hardware.act().depthwise_taps() == 0) hardware.mutable_act()->clear_depthwise_taps();
  if (hardware.act().norm_dividers() == 0) hardware.mutable_act()->clear_norm_dividers();
  // No map fields, so the plain serialisation is canonical: fields in number order.
  return Crc64(hardware.SerializeAsString());
}

std::string ToText(const NpuConfig& config) {
  std::string text;
  pb::TextFormat::PrintToString(config, &text);
  return text;
}

}  // namespace npu::spec
