# Traces of real kernels for the whole-kernel timeline checks (perf/tests/timeline_kernels_test.cpp): each kernel
# is built against the emulator as a user builds it and run once at build time with TILECRAFT_EMU_TRACE set, so
# the tests read what the emulator really records. Included from perf/CMakeLists.txt after perf_tests exists.
if(NOT TARGET tilecraft_emu OR NOT TARGET perf_tests)
  return()
endif()

set(timeline_trace_dir ${CMAKE_CURRENT_BINARY_DIR}/timeline_traces)

function(timeline_kernel target src)
  add_executable(${target} ${src})
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_EXTENSIONS OFF)
  target_link_libraries(${target} PRIVATE tilecraft_emu)
  target_compile_options(${target} PRIVATE -O1 ${TILECRAFT_WARNINGS})
endfunction()

timeline_kernel(perf_kernel_add_tiles ${CMAKE_CURRENT_SOURCE_DIR}/tests/data/add_tiles.cpp)
# Sample kernels (samples/): their traces check the simulator's invariants on real synchronisation patterns.
set(timeline_samples add_custom add_tail_pad layernorm softmax_rows matmul_cube)
foreach(sample ${timeline_samples})
  timeline_kernel(perf_kernel_${sample} ${CMAKE_SOURCE_DIR}/samples/${sample}.cpp)
endforeach()
# A MIX kernel handing each block's matmul from its AIC to its two AIVs through cross-core flags.
timeline_kernel(perf_kernel_mix_handoff ${CMAKE_SOURCE_DIR}/emu/conformance/mix_handoff.cpp)

# timeline_trace(NAME KERNEL ARGS...): runs KERNEL ARGS into ${timeline_trace_dir}/NAME.jsonl (the emulator appends,
# so the old file goes first).
set(timeline_traces "")
function(timeline_trace name kernel)
  set(out ${timeline_trace_dir}/${name}.jsonl)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${timeline_trace_dir}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${out}
    COMMAND ${CMAKE_COMMAND} -E env TILECRAFT_EMU_TRACE=${out} $<TARGET_FILE:${kernel}> ${ARGN}
    DEPENDS ${kernel}
    COMMENT "Tracing ${name}"
    VERBATIM)
  set(timeline_traces ${timeline_traces} ${out} PARENT_SCOPE)
endfunction()

foreach(sample ${timeline_samples})
  timeline_trace(${sample} perf_kernel_${sample})
endforeach()
timeline_trace(mix_handoff perf_kernel_mix_handoff)
# Twins: 2 M halves on 8 cores in 16 KiB tiles, one buffer per queue vs two.
timeline_trace(add_single perf_kernel_add_tiles 8 2097152 8192 1)
timeline_trace(add_double perf_kernel_add_tiles 8 2097152 8192 2)
# Core scaling of a memory-bound add: 4 M halves in 16 KiB tiles, double-buffered.
foreach(cores 1 2 4 16 48)
  timeline_trace(add_cores${cores} perf_kernel_add_tiles ${cores} 4194304 8192 2)
endforeach()
# The add-tuning case (hardware.md §6.1) at a quarter of its rows, 2048 x 8192 on 48 cores: every core runs the
# published per-tile pattern, a quarter as many times. Naive: 8 KiB copies, one buffer; tuned: 32 KiB, two.
timeline_trace(tuning_naive perf_kernel_add_tiles 48 16777216 4096 1)
timeline_trace(tuning_tuned perf_kernel_add_tiles 48 16777216 16384 2)

add_custom_target(perf_timeline_traces DEPENDS ${timeline_traces})
add_dependencies(perf_tests perf_timeline_traces)
target_compile_definitions(perf_tests PRIVATE TILECRAFT_TIMELINE_TRACES="${timeline_trace_dir}")

# End to end: the real command on a recorded trace (the tilecraft target is defined later, in cli/).
if(EXISTS ${CMAKE_SOURCE_DIR}/cli/CMakeLists.txt)
  add_test(NAME perf_cli_simulate COMMAND tilecraft perf simulate ${timeline_trace_dir}/add_custom.jsonl --chrome-trace
                                          ${timeline_trace_dir}/add_custom.chrome.json)
  set_tests_properties(perf_cli_simulate PROPERTIES PASS_REGULAR_EXPRESSION
    "^launch 1 add_custom on 910b2: [0-9.]+ us \\(device [0-9.]+ us \\+ launch 2.00 us\\), 8 cores\n.*  bottleneck: MTE2 .*timeline written to ")
endif()

# `tilecraft emu run --profile` prints the timeline profile under a passing run's result line.
if(EXISTS ${CMAKE_SOURCE_DIR}/cli/CMakeLists.txt AND EXISTS ${CMAKE_SOURCE_DIR}/cli/tests/data/tiny_add.cpp)
  add_test(NAME perf_cli_emu_run_profile COMMAND tilecraft emu run --profile tests/data/tiny_add.cpp
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/cli)
  set_tests_properties(perf_cli_emu_run_profile PROPERTIES PASS_REGULAR_EXPRESSION
    "PASS tests/data/tiny_add.cpp: [^\n]*\n    launch 1 [a-z_]+ on 910b2: [0-9.]+ us \\(device [0-9.]+ us \\+ launch 2.00 us\\), 2 cores\n      per core: ")
endif()
