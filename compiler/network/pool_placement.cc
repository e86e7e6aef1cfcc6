// Pool placement (pool_placement.h).
#include "compiler/network/pool_placement.h"

#include <set>
#include <variant>

namespace npu::compiler {
namespace {

std::set<int> BuffersRead(const Network& net, const NetLayer& layer) {
  std::set<int> buffers;
  for (int v : layer.inputs) buffers.insert(net.value(v).buffer);
  return buffers;
}

// A pool's buffers.
struct PoolBuffers {
  std::set<int> reads;
  int writes;
};

// `other` and the pool may run in either order: neither reads what the other writes, nor do
// both write one buffer.
bool Independent(const Network& net, const NetLayer& other, const PoolBuffers& pool) {
  const int writes = net.value(other.output).buffer;
  return !other.on_cpu() && other.fused_group.empty() &&
         !BuffersRead(net, other).contains(pool.writes) && writes != pool.writes &&
         !pool.reads.contains(writes);
}

// Where pool `i` goes (an index of the list without it): after the layer with the most MACs
// among those it may follow, passing only layers independent of it; i if none has more than the
// layer it follows now. After, not before: interleaving moves the pool's instructions in among
// the convolution's, each after the last it conflicts with, and the convolution's buffers,
// allocated before the pool's, conflict with them less than the other way round.
size_t Destination(const Network& net, size_t i) {
  const NetLayer& pool = net.layers[i];
  const PoolBuffers buffers{BuffersRead(net, pool), net.value(pool.output).buffer};
  const size_t n = net.layers.size();
  size_t best = i;
  uint64_t most = i > 0 ? net.layers[i - 1].Macs() : 0;
  for (size_t k = i + 1; k < n && Independent(net, net.layers[k], buffers); ++k) {
    if (net.layers[k].Macs() > most) {
      best = k;  // after layer k, which is k - 1 once the pool is out of the list
      most = net.layers[k].Macs();
    }
  }
  for (size_t k = i; k-- > 0;) {
    if (net.layers[k].Macs() > most) {
      best = k + 1;
      most = net.layers[k].Macs();
    }
    if (!Independent(net, net.layers[k], buffers)) break;
  }
  return best;
}

}  // namespace

int MovePoolsBesideConvolutions(Network& net) {
  std::vector<std::string> pools;
  for (const NetLayer& layer : net.layers) {
    if (std::holds_alternative<PoolLayer>(layer.work) && layer.fused_group.empty()) {
      pools.push_back(layer.name);
    }
  }
  int moved = 0;
  for (const std::string& name : pools) {
    size_t i = 0;
    while (net.layers[i].name != name) ++i;
    const size_t to = Destination(net, i);
    if (to == i) continue;
    NetLayer pool = std::move(net.layers[i]);
    net.layers.erase(net.layers.begin() + i);
    net.layers.insert(net.layers.begin() + to, std::move(pool));
    ++moved;
  }
  return moved;
}

}  // namespace npu::compiler
