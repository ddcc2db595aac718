# Runs CMD (arguments separated by '|') and compares its standard output with the file
# EXPECTED. Usage: cmake -DCMD="prog|arg1|arg2" -DEXPECTED=file -P RunAndCompare.cmake
string(REPLACE "|" ";" CMD "${CMD}")
execute_process(COMMAND ${CMD} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "command failed (${rc}): ${CMD}\n${err}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "output differs from ${EXPECTED}\n--- got ---\n${out}\n--- expected ---\n${expected}")
endif()
