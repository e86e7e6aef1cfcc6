// Node ordering: Kahn's algorithm over tensor names, taking the lowest-index ready node first so
// that an already sorted graph keeps its order.
#include "compiler/onnx/node_order.h"

#include <fmt/format.h>

#include <map>
#include <queue>

#include "compiler/onnx/op_support.h"

namespace npu::compiler::onnx_detail {
namespace {

using Producers = std::map<std::string, int>;  // tensor name -> index of the node writing it

// 1. Every node output is written once and does not shadow a graph input or initializer.
StatusOr<Producers> MapProducers(const pb::GraphProto& graph,
                                 const std::set<std::string>& defined) {
  Producers producers;
  for (int i = 0; i < graph.node_size(); ++i) {
    for (const std::string& out : graph.node(i).output()) {
      if (out.empty()) continue;
      if (defined.count(out)) {
        return InvalidArgument(fmt::format("{} writes '{}', which is a graph input or initializer",
                                           NodeLabel(graph.node(i), i), out));
      }
      auto [it, added] = producers.emplace(out, i);
      if (!added) {
        return InvalidArgument(fmt::format("'{}' is written by both {} and {}", out,
                                           NodeLabel(graph.node(it->second), it->second),
                                           NodeLabel(graph.node(i), i)));
      }
    }
  }
  return producers;
}

// 2. Every name read is defined somewhere.
Status CheckReads(const pb::GraphProto& graph, const std::set<std::string>& defined,
                  const Producers& producers) {
  for (int i = 0; i < graph.node_size(); ++i) {
    const pb::NodeProto& node = graph.node(i);
    for (int k = 0; k < node.input_size(); ++k) {
      const std::string& in = node.input(k);
      if (in.empty() || defined.count(in) || producers.count(in)) continue;
      return InvalidArgument(
          fmt::format("{} input {} reads '{}', which no node, initializer or "
                      "graph input defines",
                      NodeLabel(node, i), k, in));
    }
  }
  for (const pb::ValueInfoProto& out : graph.output()) {
    if (!defined.count(out.name()) && !producers.count(out.name())) {
      return InvalidArgument(
          fmt::format("graph output '{}' is not defined by any node, "
                      "initializer or graph input",
                      out.name()));
    }
  }
  return Status::Ok();
}

// Names the nodes of one cycle among the unplaced ones: walk producers from any unplaced node
// until a node repeats.
Status CycleError(const pb::GraphProto& graph, const Producers& producers,
                  const std::vector<int>& pending) {
  int at = 0;
  while (pending[at] == 0) ++at;
  std::vector<int> path;
  std::vector<int> seen_at(graph.node_size(), -1);
  while (seen_at[at] < 0) {
    seen_at[at] = static_cast<int>(path.size());
    path.push_back(at);
    for (const std::string& in : graph.node(at).input()) {
      auto p = producers.find(in);
      if (p != producers.end() && pending[p->second] > 0) {
        at = p->second;
        break;
      }
    }
  }
  std::vector<std::string> names;
  for (size_t i = seen_at[at]; i < path.size(); ++i) {
    names.push_back(fmt::format("'{}'", NodeName(graph.node(path[i]), path[i])));
  }
  names.push_back(fmt::format("'{}'", NodeName(graph.node(at), at)));
  return InvalidArgument(
      fmt::format("graph '{}' has a cycle: {} (each node reads the next one's "
                  "output)",
                  graph.name(), fmt::join(names, " <- ")));
}

}  // namespace

// 3. Kahn's algorithm: a node is ready when all its produced inputs are placed.
StatusOr<std::vector<int>> OrderNodes(const pb::GraphProto& graph,
                                      const std::set<std::string>& defined) {
  NPU_ASSIGN_OR_RETURN(Producers producers, MapProducers(graph, defined));
  NPU_TRY(CheckReads(graph, defined, producers));
  const int n = graph.node_size();
  std::vector<int> pending(n, 0);
  std::vector<std::vector<int>> users(n);
  for (int i = 0; i < n; ++i) {
    for (const std::string& in : graph.node(i).input()) {
      auto p = producers.find(in);
      if (p == producers.end()) continue;
      ++pending[i];
      users[p->second].push_back(i);
    }
  }
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (int i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  std::vector<int> order;
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int user : users[i]) {
      if (--pending[user] == 0) ready.push(user);
    }
  }
  if (static_cast<int>(order.size()) != n) return CycleError(graph, producers, pending);
  return order;
}

}  // namespace npu::compiler::onnx_detail
