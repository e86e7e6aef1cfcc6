// ParseLayerList: a SCALE-Sim topology or GEMM list, checked field by field.
#include "workloads/models/layer_list_csv.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <limits>
#include <map>
#include <span>

#include "compiler/layer/conv_layer.h"

namespace npu::workloads {
namespace {

constexpr std::array<std::string_view, 8> kConvColumns = {
    "Layer name",   "IFMAP Height", "IFMAP Width", "Filter Height",
    "Filter Width", "Channels",     "Num Filter",  "Strides"};
constexpr std::array<std::string_view, 4> kGemmColumns = {"Layer", "M", "N", "K"};
constexpr size_t kMaxNameLength = 128;

struct Line {
  int number;
  std::vector<std::string_view> fields;
};

std::string_view Trim(std::string_view s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

bool SameColumn(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The non-blank lines, numbered from 1, split at commas and trimmed; the one empty field a
// trailing comma makes is dropped.
std::vector<Line> Lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  for (size_t start = 0; start <= text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = Trim(text.substr(start, end - start));
    start = end + 1;
    ++number;
    if (line.empty()) continue;
    Line l{number, {}};
    for (size_t from = 0;;) {
      const size_t comma = line.find(',', from);
      l.fields.push_back(Trim(line.substr(from, comma - from)));
      if (comma == std::string_view::npos) break;
      from = comma + 1;
    }
    if (l.fields.size() > 1 && l.fields.back().empty()) l.fields.pop_back();
    lines.push_back(std::move(l));
  }
  return lines;
}

std::string ColumnList(std::span<const std::string_view> columns) {
  return fmt::format("{}", fmt::join(columns, ", "));
}

// The columns of the format the header names, or why it names none.
StatusOr<std::span<const std::string_view>> HeaderColumns(const Line& header,
                                                          std::string_view path) {
  const auto& f = header.fields;
  const bool gemm = f.size() > 1 && SameColumn(f[1], "M");
  const std::span<const std::string_view> columns =
      gemm ? std::span<const std::string_view>(kGemmColumns) : kConvColumns;
  const bool layer_first = SameColumn(f[0], "Layer") || SameColumn(f[0], "Layer name");
  if (!layer_first || (!gemm && (f.size() < 2 || !SameColumn(f[1], kConvColumns[1])))) {
    return InvalidArgument(fmt::format(
        "{}:{}: unknown header '{}': expected a SCALE-Sim topology ({}) or a GEMM list ({})", path,
        header.number, fmt::join(f, ","), ColumnList(kConvColumns), ColumnList(kGemmColumns)));
  }
  for (size_t i = 1; i < columns.size(); ++i) {
    if (i >= f.size()) {
      return InvalidArgument(fmt::format("{}:{}: header: missing column {} '{}' (expected {})",
                                         path, header.number, i + 1, columns[i],
                                         ColumnList(columns)));
    }
    if (!SameColumn(f[i], columns[i])) {
      return InvalidArgument(fmt::format("{}:{}: header: column {} is '{}', expected '{}'", path,
                                         header.number, i + 1, f[i], columns[i]));
    }
  }
  if (f.size() > columns.size()) {
    return InvalidArgument(fmt::format("{}:{}: header: unexpected column {} '{}' (expected {})",
                                       path, header.number, columns.size() + 1, f[columns.size()],
                                       ColumnList(columns)));
  }
  return columns;
}

// Where a value came from, for errors.
struct Field {
  std::string_view path;
  int line;
  size_t index;  // 0-based
  std::string_view column;

  Status Error(const std::string& what) const {
    return InvalidArgument(
        fmt::format("{}:{}: field {} ({}): {}", path, line, index + 1, column, what));
  }
};

StatusOr<int64_t> ParseSize(std::string_view text, const Field& where) {
  int64_t v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error == std::errc::result_out_of_range) {
    return where.Error(fmt::format("'{}' does not fit a 64-bit integer", text));
  }
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return where.Error(fmt::format("'{}' is not an integer", text));
  }
  if (v <= 0) return where.Error(fmt::format("{} must be positive", v));
  if (v > kMaxLayerDim) {
    return where.Error(fmt::format("{} is above the limit of {}", v, kMaxLayerDim));
  }
  return v;
}

// Layer names become node, tensor and output file names: letters, digits, '_' and '-' only, so
// that none escapes a directory or breaks a CSV report, and none meets the ".input", ".weight"
// and ".bias" tensors the builder adds.
Status CheckName(std::string_view name, const Field& where) {
  if (name.empty()) return where.Error("the layer name is empty");
  if (name.size() > kMaxNameLength) {
    return where.Error(fmt::format("the layer name has {} characters; the limit is {}", name.size(),
                                   kMaxNameLength));
  }
  for (char ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-') {
      return where.Error(fmt::format(
          "layer name '{}': only letters, digits, '_' and '-' are allowed, not '{}'", name, ch));
    }
  }
  return Status::Ok();
}

// The int32 accumulator's bound (compiler/layer/conv_layer.h, docs/integer-semantics.md).
std::string ReductionLimit(int64_t terms) {
  return fmt::format("sums {} int8 products per output; an int32 accumulator holds at most {}",
                     terms, compiler::kMaxReduction);
}

// SCALE-Sim refuses a filter larger than the ifmap: there is no padding to make room.
Status CheckConv(const ConvRow& c, const Line& line, std::string_view path) {
  if (c.filter_h > c.ifmap_h) {
    return Field{path, line.number, 3, kConvColumns[3]}.Error(
        fmt::format("{} is larger than the IFMAP Height {} (no padding)", c.filter_h, c.ifmap_h));
  }
  if (c.filter_w > c.ifmap_w) {
    return Field{path, line.number, 4, kConvColumns[4]}.Error(
        fmt::format("{} is larger than the IFMAP Width {} (no padding)", c.filter_w, c.ifmap_w));
  }
  const int64_t terms = c.filter_h * c.filter_w * c.channels;  // each <= 65536: no overflow
  if (uint64_t(terms) > compiler::kMaxReduction) {
    return Field{path, line.number, 5, kConvColumns[5]}.Error(
        fmt::format("{} channels x {}x{} filter {}", c.channels, c.filter_h, c.filter_w,
                    ReductionLimit(terms)));
  }
  return Status::Ok();
}

StatusOr<LayerRow> ParseRow(const Line& line, std::span<const std::string_view> columns,
                            std::string_view path) {
  if (line.fields.size() != columns.size()) {
    const size_t i = std::min(line.fields.size(), columns.size());
    return InvalidArgument(
        fmt::format("{}:{}: {} fields, expected {} ({}): {} column {} '{}'", path, line.number,
                    line.fields.size(), columns.size(), ColumnList(columns),
                    line.fields.size() < columns.size() ? "missing" : "unexpected", i + 1,
                    i < columns.size() ? columns[i] : line.fields[i]));
  }
  LayerRow row{std::string(line.fields[0]), line.number, {}};
  NPU_TRY(CheckName(row.name, {path, line.number, 0, columns[0]}));
  std::vector<int64_t> v;
  for (size_t i = 1; i < columns.size(); ++i) {
    NPU_ASSIGN_OR_RETURN(const int64_t size,
                         ParseSize(line.fields[i], {path, line.number, i, columns[i]}));
    v.push_back(size);
  }
  if (columns.size() == kGemmColumns.size()) {
    row.shape = GemmRow{v[0], v[1], v[2]};
    if (uint64_t(v[2]) > compiler::kMaxReduction) {
      return Field{path, line.number, 3, columns[3]}.Error(
          fmt::format("K = {} {}", v[2], ReductionLimit(v[2])));
    }
    return row;
  }
  const ConvRow conv{v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
  NPU_TRY(CheckConv(conv, line, path));
  row.shape = conv;
  return row;
}

// The product, or INT64_MAX if it overflows.
int64_t Product(std::initializer_list<int64_t> factors) {
  int64_t p = 1;
  for (int64_t f : factors) {
    if (__builtin_mul_overflow(p, f, &p)) return std::numeric_limits<int64_t>::max();
  }
  return p;
}

int64_t SaturatingSum(std::initializer_list<int64_t> terms) {
  int64_t s = 0;
  for (int64_t t : terms) {
    if (__builtin_add_overflow(s, t, &s)) return std::numeric_limits<int64_t>::max();
  }
  return s;
}

// The layer's input, weights, bias and output, in elements.
int64_t LayerElements(const LayerRow& row) {
  if (const auto* g = std::get_if<GemmRow>(&row.shape)) {
    return SaturatingSum({Product({g->m, g->k}), Product({g->k, g->n}), Product({g->m, g->n})});
  }
  const ConvRow& c = std::get<ConvRow>(row.shape);
  return SaturatingSum({Product({c.channels, c.ifmap_h, c.ifmap_w}),
                        Product({c.filters, c.channels, c.filter_h, c.filter_w}), c.filters,
                        Product({c.filters, c.OfmapH(), c.OfmapW()})});
}

}  // namespace

int64_t LayerMacs(const LayerRow& row) {
  if (const auto* g = std::get_if<GemmRow>(&row.shape)) return Product({g->m, g->n, g->k});
  const ConvRow& c = std::get<ConvRow>(row.shape);
  return Product({c.OfmapH(), c.OfmapW(), c.filter_h, c.filter_w, c.channels, c.filters});
}

StatusOr<std::vector<LayerRow>> ParseLayerList(std::string_view text, std::string_view path) {
  // 1. The header picks the format.
  const std::vector<Line> lines = Lines(text);
  if (lines.empty()) return InvalidArgument(fmt::format("{}: empty file, no header", path));
  NPU_ASSIGN_OR_RETURN(const std::span<const std::string_view> columns,
                       HeaderColumns(lines[0], path));
  // 2. One layer a line: fields, names unique, the whole list within kMaxListElements.
  std::vector<LayerRow> rows;
  std::map<std::string, int, std::less<>> first_line;
  int64_t elements = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    NPU_ASSIGN_OR_RETURN(LayerRow row, ParseRow(lines[i], columns, path));
    if (auto [it, added] = first_line.emplace(row.name, row.line); !added) {
      return Field{path, row.line, 0, columns[0]}.Error(
          fmt::format("duplicate layer name '{}' (first on line {})", row.name, it->second));
    }
    elements = SaturatingSum({elements, LayerElements(row)});
    if (elements > kMaxListElements) {
      return InvalidArgument(fmt::format(
          "{}:{}: layer '{}': the list's inputs, weights and outputs reach {} elements, above "
          "the limit of {} (no DRAM holds more as int8)",
          path, row.line, row.name, elements, kMaxListElements));
    }
    rows.push_back(std::move(row));
  }
  if (rows.empty()) {
    return InvalidArgument(
        fmt::format("{}: no layers: the header (line {}) is the only line", path, lines[0].number));
  }
  return rows;
}

}  // namespace npu::workloads
