// sc_main for SystemC tests: gtest runs inside SystemC's main. Each test case builds its own
// bench; ctest runs each case in its own process because SystemC elaborates once per process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

// SystemC prints its banner before sc_main unless told not to.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

#if defined(__SANITIZE_ADDRESS__)
// The sanitizer build (docs/reliability.md): ASan on, LeakSanitizer off in SystemC tests. It does
// not scan the coroutine stacks of SystemC threads, so what a thread still waiting when the
// simulation ends holds (a hang test's) looks leaked. ASAN_OPTIONS still overrides this.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif
