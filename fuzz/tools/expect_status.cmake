# cmake -DCOMMAND=... -DSTATUS=N -P expect_status.cmake: runs COMMAND with an unknown --kinds value and fails
# unless it exits with status N (ctest's PASS_REGULAR_EXPRESSION ignores the status).
execute_process(COMMAND ${COMMAND} --kinds delete-line,nesting RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
if(NOT status EQUAL STATUS)
  message(FATAL_ERROR "${COMMAND} --kinds delete-line,nesting exited with ${status}, expected ${STATUS}")
endif()
