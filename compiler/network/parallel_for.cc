// ParallelFor.
#include "compiler/network/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace npu::compiler {

void ParallelFor(size_t n, const std::function<void(size_t)>& body) {
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t i = next++; i < n; i = next++) body(i);
  };
  const size_t threads = std::min<size_t>(n, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace npu::compiler
