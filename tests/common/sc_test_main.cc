// sc_main for SystemC tests: gtest runs inside SystemC's main. Each test case builds its own
// bench; ctest runs each case in its own process because SystemC elaborates once per process.
#include <gtest/gtest.h>
#include <systemc>

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
