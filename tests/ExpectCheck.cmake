# Text-test helpers shared by every folder. Include with include(${CMAKE_SOURCE_DIR}/tests/ExpectCheck.cmake);
# add_test resolves the `expect_check` and `tilecraft` targets at generate time, so the include order of
# folders does not matter.
include_guard(GLOBAL)

# tilecraft_add_expect_test(NAME SOURCE [STRICT_WARNINGS] COMMAND [ARGS...])
# Runs COMMAND and checks its diagnostics against the `expected-error {{...}}` annotations in SOURCE.
# With STRICT_WARNINGS an unannotated warning fails the test as an unannotated error does.
function(tilecraft_add_expect_test name source)
  set(command ${ARGN})
  set(flags)
  list(GET command 0 first)
  if(first STREQUAL "STRICT_WARNINGS")
    list(REMOVE_AT command 0)
    set(flags --strict-warnings)
  endif()
  if(NOT command)
    message(FATAL_ERROR "tilecraft_add_expect_test(${name}): no COMMAND given")
  endif()
  add_test(NAME ${name} COMMAND expect_check ${flags} ${source} -- ${command})
endfunction()

# tilecraft_add_golden_test(NAME GOLDEN COMMAND [ARGS...])
# Runs COMMAND and compares its stdout with the GOLDEN file byte for byte. With TILECRAFT_UPDATE_GOLDENS=1 in the
# environment the golden is rewritten instead (review the diff before committing it).
function(tilecraft_add_golden_test name golden)
  if(NOT ARGN)
    message(FATAL_ERROR "tilecraft_add_golden_test(${name}): no COMMAND given")
  endif()
  # The command travels as one -D value, so its arguments are joined with '|' (no path here contains one).
  string(REPLACE ";" "|" command "${ARGN}")
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DGOLDEN=${golden} "-DCOMMAND=${command}"
                   -P ${CMAKE_SOURCE_DIR}/tests/RunGolden.cmake)
endfunction()
