# End-to-end check of a command's exact output and exit status:
#   cmake -DCOMMAND="tilecraft|task|check|DIR" -DSTATUS=1 -DEXPECTED=file.txt -DWORKDIR=dir -P ExpectOutput.cmake
# stdout and stderr are compared together, as a user sees them.
string(REPLACE "|" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND} WORKING_DIRECTORY ${WORKDIR} OUTPUT_VARIABLE actual ERROR_VARIABLE actual
                RESULT_VARIABLE status)
file(READ ${EXPECTED} expected)
if(NOT status STREQUAL STATUS)
  message(FATAL_ERROR "exit status ${status}, expected ${STATUS}: ${COMMAND}\n${actual}")
endif()
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "output of ${COMMAND} differs from ${EXPECTED}:\n--- actual\n${actual}--- expected\n${expected}")
endif()
