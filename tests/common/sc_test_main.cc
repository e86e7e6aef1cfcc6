// sc_main for SystemC tests: gtest runs inside SystemC's main. Each test case builds its own
// bench; ctest runs each case in its own process because SystemC elaborates once per process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

#include "platform/leak_check_off.h"  // the sanitizer build: no leak check under SystemC

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

// SystemC prints its banner before sc_main unless told not to.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
