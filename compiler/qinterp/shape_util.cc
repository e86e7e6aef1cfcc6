// Broadcasting and strides.
#include "compiler/qinterp/shape_util.h"

#include <algorithm>

namespace npu::compiler::qinterp {

std::optional<ir::Shape> Broadcast(const ir::Shape& a, const ir::Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  ir::Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = std::max(da, db);
  }
  return out;
}

std::vector<int64_t> Strides(const ir::Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

std::vector<int64_t> BroadcastIndex(const ir::Shape& in, const ir::Shape& out) {
  const size_t rank = out.size(), lead = rank - in.size();
  const std::vector<int64_t> in_strides = Strides(in);
  std::vector<int64_t> index(ir::NumElements(out));
  std::vector<int64_t> pos(rank, 0);
  for (int64_t& target : index) {
    int64_t i = 0;
    for (size_t d = lead; d < rank; ++d) {
      if (in[d - lead] != 1) i += pos[d] * in_strides[d - lead];
    }
    target = i;
    for (int64_t d = int64_t(rank) - 1; d >= 0; --d) {  // next output position
      if (++pos[d] < out[d]) break;
      pos[d] = 0;
    }
  }
  return index;
}

}  // namespace npu::compiler::qinterp
