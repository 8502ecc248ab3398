# --stats: per-phase traffic (counted by the MPI wrappers and the lookup
# service) adds up over ranks, in SPEC and ranked mode.
set(stats_case ${CMAKE_CURRENT_SOURCE_DIR}/cases/random_small)
spellcheck_add_mpi_test(NAME e2e.stats_traffic RANKS 1 3 THREADS 2 TIMEOUT 120 LABELS "e2e;stats"
  WRAP bash ${CMAKE_CURRENT_SOURCE_DIR}/stats_traffic.sh --
  COMMAND $<TARGET_FILE:spellcheck> ${stats_case}/dict.txt ${stats_case}/docs)
spellcheck_add_mpi_test(NAME e2e.stats_traffic.ranked RANKS 2 THREADS 2 TIMEOUT 120 LABELS "e2e;stats"
  WRAP bash ${CMAKE_CURRENT_SOURCE_DIR}/stats_traffic.sh --
  COMMAND $<TARGET_FILE:spellcheck> --suggest ranked ${stats_case}/dict.txt ${stats_case}/docs)
# --huge-pages on|off|auto: what each run chose, and no re-execution
# (common/huge_pages.hpp), on every rank.
spellcheck_add_mpi_test(NAME e2e.huge_pages RANKS 1 2 THREADS 1 TIMEOUT 120 LABELS "e2e;stats"
  WRAP bash ${CMAKE_CURRENT_SOURCE_DIR}/huge_pages.sh --
  COMMAND $<TARGET_FILE:spellcheck> --suggest ranked ${stats_case}/dict.txt ${stats_case}/docs)
