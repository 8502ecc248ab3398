# --per-document (tests/per_document.sh): the per-document JSON Lines file
# under mpirun on 1-4 ranks x 1-2 threads against the serial reference's, on
# a generated collection (SPEC and ranked mode, --filter url,digits,
# --per-document-top, --max-word-length) and on JSON Lines records named by
# --id-field; --per-document refused with --words and an unwritable file.
add_test(NAME per_document
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/per_document.sh --mpiexec ${MPIEXEC_EXECUTABLE}
          $<TARGET_FILE:spellcheck> $<TARGET_FILE:reference_spellcheck> /usr/share/dict/american-english-insane)
set_tests_properties(per_document PROPERTIES PROCESSORS 2 TIMEOUT 300 LABELS "mpi;per_document")
