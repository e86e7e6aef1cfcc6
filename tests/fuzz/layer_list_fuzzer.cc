// Fuzz target: the layer-list reader (workloads/models/layer_list_csv.*), the SCALE-Sim topology
// and GEMM list CSVs run_workload takes as a model. Properties: any bytes give rows or an error
// naming the file; every accepted row has sizes in [1, kMaxLayerDim], a filter within its ifmap,
// a name of [A-Za-z0-9_-] unique in the list, at least one output pixel, at most 65535 products
// summed per output, and positive MACs (the list stays within kMaxListElements: none overflows).
#include <cctype>
#include <set>
#include <string>
#include <variant>

#include "tests/fuzz/fuzz_target.h"
#include "workloads/models/layer_list_csv.h"

namespace {

using npu::fuzz::Finding;
using npu::workloads::ConvRow;
using npu::workloads::GemmRow;
using npu::workloads::kMaxLayerDim;
using npu::workloads::LayerRow;

bool InRange(int64_t v) { return v >= 1 && v <= kMaxLayerDim; }

void CheckRow(const LayerRow& row) {
  for (char ch : row.name) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-') {
      Finding("ParseLayerList accepted the layer name '" + row.name + "'");
    }
  }
  if (const auto* g = std::get_if<GemmRow>(&row.shape)) {
    if (!InRange(g->m) || !InRange(g->n) || !InRange(g->k)) Finding("a GEMM size out of range");
    if (g->k > 65535) Finding("an accepted GEMM sums more than 65535 products");
  } else {
    const ConvRow& c = std::get<ConvRow>(row.shape);
    for (int64_t v :
         {c.ifmap_h, c.ifmap_w, c.filter_h, c.filter_w, c.channels, c.filters, c.stride}) {
      if (!InRange(v)) Finding("a convolution size out of range in '" + row.name + "'");
    }
    if (c.OfmapH() < 1 || c.OfmapW() < 1) Finding("an accepted convolution has no output");
    if (c.filter_h * c.filter_w * c.channels > 65535) {
      Finding("an accepted convolution sums more than 65535 products");
    }
  }
  if (npu::workloads::LayerMacs(row) <= 0) Finding("an accepted layer has no MACs");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npu::StatusOr<std::vector<LayerRow>> rows =
      npu::workloads::ParseLayerList(npu::fuzz::AsText(data, size), "f.csv");
  if (!rows.ok()) {
    if (rows.status().message().rfind("f.csv", 0) != 0) {
      Finding("an error that does not start with the file: " + rows.status().message());
    }
    return 0;
  }
  if (rows->empty()) Finding("ParseLayerList accepted a list without layers");
  std::set<std::string> names;
  for (const LayerRow& row : *rows) {
    CheckRow(row);
    if (!names.insert(row.name).second) Finding("a repeated layer name: " + row.name);
  }
  return 0;
}
