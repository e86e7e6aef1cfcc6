// The quantisation cache (quantize_cache.h).
#include "compiler/network/quantize_cache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include "compiler/ir/graph_proto.h"
#include "compiler/network/cache_dir.h"
#include "compiler/qinterp/check.h"
#include "hw/spec/binary.h"
#include "hw/spec/crc64.h"
#include "hw/spec/file_io.h"

namespace npu::compiler {
namespace {

namespace fs = std::filesystem;

// An entry: magic, the key, the payload's CRC-64, then the serialised graph (ir/graph_proto.h).
constexpr std::string_view kMagic = "NPUQCH01";
constexpr size_t kHeaderBytes = kMagic.size() + 2 * sizeof(uint64_t);

std::string EntryPath(const std::string& dir, uint64_t key) {
  return fmt::format("{}/{:016x}.qgraph", dir, key);
}

std::string_view Bytes(const uint64_t& value) {
  return {reinterpret_cast<const char*>(&value), sizeof(value)};
}

uint64_t ReadU64(std::string_view bytes, size_t at) {
  uint64_t value;
  std::memcpy(&value, bytes.data() + at, sizeof(value));
  return value;
}

// Removes the least recently used entries (by modification time, which a hit refreshes) until
// the folder holds at most kQuantizeCacheBytes.
void Evict(const std::string& dir) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries;
  uint64_t total = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".qgraph" || !e.is_regular_file(ec)) continue;
    total += e.file_size(ec);
    entries.push_back(e);
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    std::error_code ea, eb;
    return a.last_write_time(ea) < b.last_write_time(eb);
  });
  for (const fs::directory_entry& e : entries) {
    if (total <= kQuantizeCacheBytes) break;
    total -= std::min(total, uint64_t(e.file_size(ec)));
    fs::remove(e.path(), ec);
  }
}

}  // namespace

std::string DefaultQuantizeCacheDir() { return DefaultCacheDir("quantized"); }

uint64_t QuantizeCacheKey(const std::string& salt, uint64_t model_fingerprint,
                          const quantize::QuantizeOptions& options,
                          const quantize::CalibrationSet& calibration, const std::string& variant) {
  uint64_t crc = spec::Crc64(salt);
  const auto add = [&crc](std::string_view bytes) { crc = spec::Crc64(bytes, crc); };
  const auto add_u64 = [&add](uint64_t value) { add(Bytes(value)); };
  add_u64(model_fingerprint);
  add(quantize::ObserverName(options.observer));
  add(fmt::format("{:a}/{}", options.percentile, options.histogram_bins));
  if (options.weight_bits != 8) add(fmt::format("weight_bits={}", options.weight_bits));
  for (const std::string& layer : options.int4_layers) add("int4:" + layer);
  for (const std::string& layer : options.fp16_layers) add("fp16:" + layer);
  if (!variant.empty()) add("variant:" + variant);
  add_u64(calibration.samples.size());
  for (const std::vector<interp::HostTensor>& sample : calibration.samples) {
    add_u64(sample.size());
    for (const interp::HostTensor& t : sample) {
      add_u64(uint64_t(t.dtype));
      add_u64(t.shape.size());
      for (const int64_t d : t.shape) add_u64(uint64_t(d));
      add_u64(t.data.size());
      add({reinterpret_cast<const char*>(t.data.data()), t.data.size()});
    }
  }
  return crc;
}

CacheLookup LoadQuantized(const std::string& dir, uint64_t key) {
  CacheLookup found;
  const std::string path = EntryPath(dir, key);
  std::error_code ec;
  if (dir.empty() || !fs::exists(path, ec)) return found;
  StatusOr<std::string> bytes = spec::ReadWholeFile(path, "quantisation cache entry");
  const auto unusable = [&path](const std::string& why) {
    return CacheLookup{std::nullopt,
                       fmt::format("ignored the quantisation cache entry {}: {}", path, why)};
  };
  if (!bytes.ok()) return unusable(bytes.status().message());
  if (bytes->size() < kHeaderBytes || std::string_view(*bytes).substr(0, kMagic.size()) != kMagic) {
    return unusable("not a cache entry of this format");
  }
  if (ReadU64(*bytes, kMagic.size()) != key) return unusable("it holds another key");
  const std::string_view payload = std::string_view(*bytes).substr(kHeaderBytes);
  if (ReadU64(*bytes, kMagic.size() + sizeof(uint64_t)) != spec::Crc64(payload)) {
    return unusable("its checksum does not match (a damaged file)");
  }
  StatusOr<ir::Graph> graph = ir::ParseGraph(payload);
  if (!graph.ok()) return unusable(graph.status().message());
  if (Status valid = qinterp::CheckQuantizedGraph(*graph); !valid.ok()) {
    return unusable(valid.message());
  }
  fs::last_write_time(path, fs::file_time_type::clock::now(), ec);  // recently used
  found.graph = *std::move(graph);
  return found;
}

std::string StoreQuantized(const std::string& dir, uint64_t key, const ir::Graph& quantized) {
  if (dir.empty()) return "";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fmt::format("cannot create the quantisation cache {}: {}", dir, ec.message());
  const std::string payload = ir::SerializeGraph(quantized);
  const uint64_t checksum = spec::Crc64(payload);
  const std::string entry =
      std::string(kMagic) + std::string(Bytes(key)) + std::string(Bytes(checksum)) + payload;
  const Status stored =
      spec::WriteFileAtomically(EntryPath(dir, key), entry, "the quantisation cache entry");
  if (!stored.ok()) return stored.message();
  Evict(dir);
  return "";
}

}  // namespace npu::compiler
