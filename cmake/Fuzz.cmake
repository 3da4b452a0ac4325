# The fuzz build (-DPOPSDK_FUZZ=ON): Clang's libFuzzer coverage in every library, with
# AddressSanitizer and UndefinedBehaviorSanitizer, so that a fuzz target reports what it reaches.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "POPSDK_FUZZ=ON needs Clang's libFuzzer: configure a separate build "
                      "directory with CC=clang-14 CXX=clang++-14 (this compiler is "
                      "${CMAKE_CXX_COMPILER_ID})")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                    -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
