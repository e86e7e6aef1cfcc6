// A SystemC thread that runs a test's body once: for unit tests that drive a hw class from a few
// processes (hw/common/unit_timer.h, hw/common/token_sync.h).
#pragma once

#include <functional>
#include <systemc>
#include <utility>

namespace npu::testing {

struct BodyThread : sc_core::sc_module {
  SC_HAS_PROCESS(BodyThread);
  BodyThread(sc_core::sc_module_name name, std::function<void()> f)
      : sc_module(name), body(std::move(f)) {
    SC_THREAD(Run);
  }
  void Run() { body(); }
  std::function<void()> body;
};

}  // namespace npu::testing
