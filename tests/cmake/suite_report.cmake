# -o and --report: occurrences and first locations (counted while tokenizing, see
# line_marks.hpp) against the serial reference's on every hand-made document
# case, on 1-4 ranks, one and two threads.
# Only the 2- and 4-rank runs carry the label `cases` (also run under ASan,
# where each of these takes about a minute).
foreach(combo "1 3|1|report" "2 4|2|cases;report")
  string(REPLACE "|" ";" combo "${combo}")
  list(GET combo 0 ranks)
  list(GET combo 1 threads)
  list(SUBLIST combo 2 -1 labels)
  separate_arguments(ranks)
  spellcheck_add_mpi_test(NAME e2e.report_locations RANKS ${ranks} THREADS ${threads} TIMEOUT 300
    FIXTURES e2e.empty_dir LABELS e2e ${labels}
    WRAP bash ${CMAKE_CURRENT_SOURCE_DIR}/report_locations.sh $<TARGET_FILE:reference_spellcheck>
         ${CMAKE_CURRENT_SOURCE_DIR}/cases ${E2E_EMPTY_DIR} --
    COMMAND $<TARGET_FILE:spellcheck>)
endforeach()

# The distributed sort and the parallel write (sorted_output.hpp) on more
# ranks than the other suites use (7: odd, and no power of two), with
# 5-byte chunks: -o and --report written by every rank at its offset, in
# many rounds. (Not under ASan: 7 sanitized ranks on 2 cores take
# minutes.)
spellcheck_add_mpi_test(NAME e2e.sorted_output RANKS 7 THREADS 1 TIMEOUT 300
  FIXTURES e2e.empty_dir LABELS "e2e;report"
  WRAP env SPELLCHECK_MAX_MESSAGE_BYTES=5 bash ${CMAKE_CURRENT_SOURCE_DIR}/report_locations.sh
       $<TARGET_FILE:reference_spellcheck> ${CMAKE_CURRENT_SOURCE_DIR}/cases ${E2E_EMPTY_DIR} --
  COMMAND $<TARGET_FILE:spellcheck>)

# The two-level all-to-all (node_exchange.hpp) in the whole program: the
# dictionary shuffle and the word routing (with occurrence counts, first
# positions and line marks) on emulated nodes of 2 ranks (4 ranks: 2 nodes)
# and of 3 ranks (6 ranks: 2 nodes); -o and --report
# against the reference on every hand-made document case.
foreach(combo "4|2" "6|3")
  string(REPLACE "|" ";" combo "${combo}")
  list(GET combo 0 ranks)
  list(GET combo 1 per_node)
  spellcheck_add_mpi_test(NAME e2e.two_level.l${per_node} RANKS ${ranks} THREADS 1 TIMEOUT 300
    FIXTURES e2e.empty_dir LABELS "e2e;report"
    WRAP env SPELLCHECK_RANKS_PER_NODE=${per_node} SPELLCHECK_EXCHANGE=two-level
         bash ${CMAKE_CURRENT_SOURCE_DIR}/report_locations.sh $<TARGET_FILE:reference_spellcheck>
         ${CMAKE_CURRENT_SOURCE_DIR}/cases ${E2E_EMPTY_DIR} --
    COMMAND $<TARGET_FILE:spellcheck>)
endforeach()

# The default --exchange auto on 16 ranks (emulated nodes of 4): two levels
# where the start-ups saved outweigh the extra copy (routing a small word
# list), direct where they do not (shuffling a big dictionary), from the
# messages in --stats; outputs against the reference.
spellcheck_add_mpi_test(NAME e2e.exchange_choice RANKS 16 THREADS 1 TIMEOUT 300
  FIXTURES data.small LABELS "e2e;report"
  WRAP bash ${CMAKE_CURRENT_SOURCE_DIR}/exchange_choice.sh $<TARGET_FILE:reference_spellcheck>
       ${SPELLCHECK_TEST_DATA_DIR}/dict/american-insane.txt ${SPELLCHECK_TEST_DATA_DIR}/dict/small-10k.txt
       ${SPELLCHECK_TEST_DATA_DIR}/words/d10k-w10k.txt --
  COMMAND $<TARGET_FILE:spellcheck>)
