# Helpers shared by every CMakeLists.txt of the project.
include(GoogleTest)

# npu_add_test(NAME name SOURCES a.cc b.cc LIBS lib...)
# Every test case runs as its own ctest process: SystemC elaborates once per process.
# SystemC tests provide sc_main (link npu_sc_test_main); the rest use gtest_main.
function(npu_add_test)
  cmake_parse_arguments(T "SYSTEMC" "NAME" "SOURCES;LIBS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  if(T_SYSTEMC)
    target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} npu_sc_test_main GTest::gtest)
  else()
    target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest_main)
  endif()
  # Tests that read docs/ or golden files find the source tree through NPU_SOURCE_DIR.
  target_compile_definitions(${T_NAME} PRIVATE NPU_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  gtest_discover_tests(${T_NAME}
    PROPERTIES ENVIRONMENT SYSC_DISABLE_COPYRIGHT_MESSAGE=1
    DISCOVERY_TIMEOUT 60)
endfunction()
