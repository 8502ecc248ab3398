# --context (tests/context.sh): ranked mode weighed by the collection's word
# pairs, under mpirun on 1-4 ranks x 1-2 threads, byte for byte against the
# serial reference (tests/reference/context_reference.py) on a generated
# collection whose big file is cut into units, with a word list and with
# hunspell's en_US; --fix; a pipe ranked without.
include(${CMAKE_CURRENT_LIST_DIR}/TestPython.cmake)
add_test(NAME ranked.context
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/context.sh --mpiexec ${MPIEXEC_EXECUTABLE}
          $<TARGET_FILE:spellcheck> /usr/share/dict/american-english-insane /usr/share/hunspell/en_US.dic)
set_tests_properties(ranked.context PROPERTIES PROCESSORS 2 TIMEOUT 300 LABELS "mpi;ranked;context"
                     ENVIRONMENT "SPELLCHECK_TEST_PYTHON=${SPELLCHECK_TEST_PYTHON}")
