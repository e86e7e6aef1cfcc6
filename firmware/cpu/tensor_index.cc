// Shapes, strides, broadcasting.
#include "firmware/cpu/tensor_index.h"

#include <algorithm>

namespace npu::fw::cpu {

Dims DimsOf(const spec::TensorDesc& t) { return Dims(t.shape().begin(), t.shape().end()); }

Dims StridesOf(const Dims& dims) {
  Dims s(dims.size(), 1);
  for (int64_t d = int64_t(dims.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * dims[d + 1];
  return s;
}

int64_t Count(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

bool Next(std::vector<int64_t>& pos, const Dims& dims) {
  for (int64_t d = int64_t(dims.size()) - 1; d >= 0; --d) {
    if (++pos[d] < dims[d]) return true;
    pos[d] = 0;
  }
  return false;
}

std::optional<Dims> Broadcast(const Dims& a, const Dims& b) {
  Dims y(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < y.size(); ++i) {
    const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) return std::nullopt;
    y[y.size() - 1 - i] = std::max(da, db);
  }
  return y;
}

std::vector<int64_t> BroadcastSource(const Dims& in, const Dims& out) {
  const size_t lead = out.size() - in.size();
  const Dims strides = StridesOf(in);
  std::vector<int64_t> source;
  source.reserve(Count(out));
  std::vector<int64_t> pos(out.size(), 0);
  do {
    int64_t i = 0;
    for (size_t d = lead; d < out.size(); ++d) {
      if (in[d - lead] != 1) i += pos[d] * strides[d - lead];
    }
    source.push_back(i);
  } while (Next(pos, out));
  return source;
}

}  // namespace npu::fw::cpu
