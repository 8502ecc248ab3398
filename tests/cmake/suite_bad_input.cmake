# Bad input and bad options (tests/bad_input.sh): exit status 2, one line on
# stderr, nothing on stdout, no output file left behind; binary junk works.
# A failing mpirun costs 1-3 s here, so the work is split: every scenario on
# 1 rank writing to stdout, and on 3 ranks with -o FILE.
add_test(NAME bad_input.p1
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bad_input.sh --mpiexec ${MPIEXEC_EXECUTABLE}
          --ranks 1 --variants plain $<TARGET_FILE:spellcheck>)
add_test(NAME bad_input.p3
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bad_input.sh --mpiexec ${MPIEXEC_EXECUTABLE}
          --ranks 3 --variants o $<TARGET_FILE:spellcheck>)
set_tests_properties(bad_input.p1 PROPERTIES PROCESSORS 1)
set_tests_properties(bad_input.p3 PROPERTIES PROCESSORS 1)
set_tests_properties(bad_input.p1 bad_input.p3 PROPERTIES TIMEOUT 900
  LABELS "mpi;bad_input" SKIP_RETURN_CODE 77)
