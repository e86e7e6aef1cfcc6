// The .npy format: "\x93NUMPY", version 1.0, a little-endian uint16 header length, a Python
// dict literal {'descr': ..., 'fortran_order': False, 'shape': (...), } padded with spaces to a
// 64-byte boundary and ended by '\n', then the raw data.
#include "tools/common/npy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "hw/spec/file_io.h"

namespace npu::tools {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

size_t ElementBytes(const std::string& dtype) {
  if (dtype == "|i1" || dtype == "|u1") return 1;
  if (dtype == "<i4" || dtype == "<f4") return 4;
  if (dtype == "<i8") return 8;
  return 0;
}

// memcpy that takes empty ranges, whose data() may be null (memcpy's pointers must not be).
void CopyBytes(void* to, const void* from, size_t n) {
  if (n != 0) std::memcpy(to, from, n);
}

std::string ShapeLiteral(const std::vector<int64_t>& shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

// The value text after `'key':` in the header dict, up to the next top-level comma or brace.
StatusOr<std::string> DictValue(const std::string& header, const std::string& key,
                                const std::string& what) {
  const size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return InvalidArgument(fmt::format("{}: .npy header has no '{}'", what, key));
  size_t i = header.find(':', at) + 1;
  while (i < header.size() && header[i] == ' ') ++i;
  const size_t begin = i;
  int depth = 0;
  for (; i < header.size(); ++i) {
    if (header[i] == '(') ++depth;
    if (header[i] == ')') --depth;
    if (depth == 0 && (header[i] == ',' || header[i] == '}')) break;
  }
  return header.substr(begin, i - begin);
}

StatusOr<std::vector<int64_t>> ParseShape(const std::string& text, const std::string& what) {
  if (text.size() < 2 || text.front() != '(') {
    return InvalidArgument(fmt::format("{}: bad .npy shape '{}'", what, text));
  }
  std::vector<int64_t> shape;
  std::stringstream in(text.substr(1, text.find(')') - 1));
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t first = item.find_first_not_of(' '), last = item.find_last_not_of(' ');
    if (first == std::string::npos) continue;
    int64_t d = 0;
    const char *begin = item.data() + first, *end = item.data() + last + 1;
    const auto [stop, error] = std::from_chars(begin, end, d);
    if (error != std::errc() || stop != end) {  // not a number, or one beyond 64 bits
      return InvalidArgument(fmt::format("{}: bad .npy shape '{}'", what, text));
    }
    shape.push_back(d);
    if (shape.back() < 0) return InvalidArgument(fmt::format("{}: negative dimension", what));
  }
  return shape;
}

}  // namespace

std::string EncodeNpy(const NpyArray& a) {
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                   a.dtype, ShapeLiteral(a.shape));
  const size_t unpadded = 6 + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(a.data.data()), a.data.size());
  return out;
}

StatusOr<NpyArray> DecodeNpy(const std::string& bytes, const std::string& what) {
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0) {
    return InvalidArgument(fmt::format("{}: not a .npy file", what));
  }
  if (bytes[6] != 1)
    return InvalidArgument(fmt::format("{}: .npy version {} not supported", what, int(bytes[6])));
  const size_t header_len = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8;
  if (10 + header_len > bytes.size())
    return InvalidArgument(fmt::format("{}: truncated .npy header", what));
  const std::string header = bytes.substr(10, header_len);
  NpyArray a;
  NPU_ASSIGN_OR_RETURN(std::string descr, DictValue(header, "descr", what));
  a.dtype = descr.size() >= 2 ? descr.substr(1, descr.size() - 2) : "";
  if (ElementBytes(a.dtype) == 0) {
    return InvalidArgument(
        fmt::format("{}: .npy dtype {} not supported (int8, uint8, int32, int64, "
                    "float32)",
                    what, descr));
  }
  NPU_ASSIGN_OR_RETURN(std::string order, DictValue(header, "fortran_order", what));
  if (order != "False")
    return InvalidArgument(fmt::format("{}: Fortran-order .npy not supported", what));
  NPU_ASSIGN_OR_RETURN(std::string shape, DictValue(header, "shape", what));
  NPU_ASSIGN_OR_RETURN(a.shape, ParseShape(shape, what));
  // The shape's bytes, refused before they could wrap around 64 bits.
  const uint64_t held = bytes.size() - 10 - header_len;
  uint64_t expected = ElementBytes(a.dtype);
  for (int64_t d : a.shape) {
    if (d != 0 && expected > UINT64_MAX / uint64_t(d)) {
      return InvalidArgument(fmt::format("{}: .npy shape {} needs more bytes than the {} it holds",
                                         what, ShapeLiteral(a.shape), held));
    }
    expected *= uint64_t(d);
  }
  if (held != expected) {
    return InvalidArgument(
        fmt::format("{}: .npy holds {} data bytes, its shape needs {}", what, held, expected));
  }
  a.data.assign(bytes.begin() + 10 + header_len, bytes.end());
  return a;
}

StatusOr<NpyArray> ReadNpyFile(const std::string& path) {
  NPU_ASSIGN_OR_RETURN(const std::string bytes, spec::ReadWholeFile(path, "input file"));
  return DecodeNpy(bytes, path);
}

StatusOr<std::vector<float>> FiniteFloats(const NpyArray& a, const std::string& what) {
  if (a.dtype != "<f4") {
    return InvalidArgument(fmt::format("{}: float32 expected, the file holds {}", what, a.dtype));
  }
  std::vector<float> values(a.data.size() / sizeof(float));
  CopyBytes(values.data(), a.data.data(), values.size() * sizeof(float));
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::isfinite(values[i])) continue;
    std::vector<int64_t> index(a.shape.size());
    for (size_t d = index.size(), rest = i; d-- > 0;) {
      index[d] = int64_t(rest % uint64_t(a.shape[d]));
      rest /= uint64_t(a.shape[d]);
    }
    return InvalidArgument(fmt::format("{}: element [{}] is {}; inputs must be finite", what,
                                       fmt::join(index, ", "), values[i]));
  }
  return values;
}

NpyArray Int8Array(const std::vector<int8_t>& values, std::vector<int64_t> shape) {
  NpyArray a{"|i1", std::move(shape), {}};
  a.data.resize(values.size());
  CopyBytes(a.data.data(), values.data(), values.size());
  return a;
}

NpyArray Float32Array(const std::vector<float>& values, std::vector<int64_t> shape) {
  NpyArray a{"<f4", std::move(shape), {}};
  a.data.resize(values.size() * 4);
  CopyBytes(a.data.data(), values.data(), a.data.size());
  return a;
}

}  // namespace npu::tools
