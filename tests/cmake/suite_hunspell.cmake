# hunspell's own test suite (tests/hunspell_suite/, hunspell v1.7.1; see its
# README.md): for each case, spellcheck --words on the .good and .wrong
# words with the case's .aff/.dic, byte for byte against hunspell_reference
# (libhunspell), plus the suite's expectations judged by the reference and
# the refusal of the four malformed crash-test dictionaries
# (tests/hunspell_suite.sh). About 0.5 s per case (mostly mpirun and
# MPI_Init), eight cases at a time (four: 16 and 26 s here; eight: 13
# and 22 s): 13-22 s a run, so one run (CI time): p3.t2, remote lookups
# and threads; the language tests meet every rank count (every rank count
# x {1,2} threads with SPELLCHECK_E2E_FULL_MATRIX).
# The slow case timelimit (minutes: ~2,900 edit strings of one word, each an
# exponential compound check) runs only with SPELLCHECK_HUNSPELL_SUITE_SLOW.
option(SPELLCHECK_HUNSPELL_SUITE_SLOW "also run hunspell's slow timelimit case" OFF)

set(HUNSPELL_SUITE_CMD bash ${CMAKE_CURRENT_SOURCE_DIR}/hunspell_suite.sh --mpiexec ${MPIEXEC_EXECUTABLE} --jobs 8)
set(HUNSPELL_SUITE_ARGS $<TARGET_FILE:spellcheck> $<TARGET_FILE:hunspell_reference>
    ${CMAKE_CURRENT_SOURCE_DIR}/hunspell_suite)

if(SPELLCHECK_E2E_FULL_MATRIX)
  set(hunspell_matrix "1 2 3 4|1 2")
else()
  set(hunspell_matrix "3|2")
endif()
foreach(part IN LISTS hunspell_matrix)
  string(REPLACE "|" ";" part "${part}")
  list(GET part 0 ranks)
  list(GET part 1 threads)
  separate_arguments(ranks)
  separate_arguments(threads)
  foreach(p IN LISTS ranks)
    foreach(t IN LISTS threads)
      add_test(NAME hunspell_suite.p${p}.t${t}
        COMMAND ${HUNSPELL_SUITE_CMD} ${HUNSPELL_SUITE_ARGS} ${p} ${t})
      set_tests_properties(hunspell_suite.p${p}.t${t} PROPERTIES PROCESSORS 2 TIMEOUT 300
        LABELS "mpi;hunspell")
    endforeach()
  endforeach()
endforeach()

if(SPELLCHECK_HUNSPELL_SUITE_SLOW)
  add_test(NAME hunspell_suite.timelimit.p2.t2
    COMMAND ${HUNSPELL_SUITE_CMD} --only timelimit ${HUNSPELL_SUITE_ARGS} 2 2)
  set_tests_properties(hunspell_suite.timelimit.p2.t2 PROPERTIES PROCESSORS 2 TIMEOUT 900
    LABELS "mpi;hunspell;slow")
endif()
