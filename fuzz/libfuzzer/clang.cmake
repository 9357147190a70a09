# The coverage-guided fuzz build (docs/fuzzing.md): `cmake -S . -B build-fuzz -G Ninja -C fuzz/libfuzzer/clang.cmake`,
# which `make fuzz` runs. Debian's clang 14 with libFuzzer (libclang-rt-14-dev); every library the targets link
# is instrumented for coverage (fuzzer-no-link) and built under ASan + UBSan (TILECRAFT_SANITIZE), optimised,
# since a fuzzer's worth is executions per second. The g++ builds never see the targets: only this file turns
# TILECRAFT_LIBFUZZER on.
set(CMAKE_CXX_COMPILER clang++ CACHE STRING "")
set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "")
set(CMAKE_CXX_FLAGS "-fsanitize=fuzzer-no-link" CACHE STRING "")
set(TILECRAFT_SANITIZE ON CACHE BOOL "")
set(TILECRAFT_LIBFUZZER ON CACHE BOOL "")
