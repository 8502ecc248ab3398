# --filter (tests/filters.sh): markup, URLs and digits left out, on hand-made
# and real Debian files, under mpirun on 1-4 ranks against the serial
# reference; ranked mode's default, --sort count, --exit-status; JSON Lines
# and WARC files against the same text as plain files.
foreach(part compare modes corpus)
  add_test(NAME filters.${part}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/filters.sh --mpiexec ${MPIEXEC_EXECUTABLE} ${part}
            $<TARGET_FILE:spellcheck> $<TARGET_FILE:reference_spellcheck> $<TARGET_FILE:filter_text>
            /usr/share/dict/american-english-insane)
  set_tests_properties(filters.${part} PROPERTIES PROCESSORS 2 TIMEOUT 300 LABELS "mpi;filters")
endforeach()
