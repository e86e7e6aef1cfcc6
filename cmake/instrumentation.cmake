# Instrumented builds (docs/reliability.md), each in its own build folder. The flags go on every
# target, so that the libraries under test are instrumented, not only the programs calling them.
#   -DNPU_SANITIZE=ON  AddressSanitizer + UndefinedBehaviorSanitizer, any finding fails the run
#                      (tools/npu test --sanitize)
#   -DNPU_FUZZ=ON      the same sanitizers plus libFuzzer's coverage; clang only (tools/npu fuzz)
option(NPU_SANITIZE "build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(NPU_FUZZ "build the fuzz targets with libFuzzer (clang), ASan and UBSan" OFF)

# gcc leaves float-cast-overflow out of -fsanitize=undefined; a NaN or out-of-range float
# converted to int8 is exactly the kind of bug the sanitizer build is for.
set(NPU_SANITIZER_FLAGS -fsanitize=address,undefined,float-cast-overflow
  -fno-sanitize-recover=all -fno-omit-frame-pointer)

if(NPU_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "NPU_FUZZ needs clang (libFuzzer): configure with "
      "-DCMAKE_CXX_COMPILER=clang++ in a build folder of its own")
  endif()
  # -Werror belongs to the gcc build CI runs; clang's extra warnings (-Woverloaded-virtual on
  # SystemC's sc_object::trace, for one) are shown but do not stop a fuzz build.
  add_compile_options(${NPU_SANITIZER_FLAGS} -fsanitize=fuzzer-no-link -Wno-error)
  add_link_options(${NPU_SANITIZER_FLAGS})
elseif(NPU_SANITIZE)
  add_compile_options(${NPU_SANITIZER_FLAGS})
  add_link_options(${NPU_SANITIZER_FLAGS})
endif()
