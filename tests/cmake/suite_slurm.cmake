# Slurm tests (label "slurm"): a real Slurm on this machine, started by the
# project's scripts/slurm-local (slurm-wlm and munge from Debian, installed
# by scripts/install-deps.sh when missing), with 2 emulated nodes. They
# take one another's lock, not the machine: their jobs mostly wait on the
# scheduler (run alone they left the cores idle for half a minute at the
# end of CI), and nothing in them is timed. slurm.up starts first (COST,
# tests/CMakeLists.txt).
#
#   slurm.up / slurm.down      fixture: cluster up (--nodes 2), then down
#   slurm.sbatch               slurm/spellcheck.sbatch under `sbatch --wait`
#                              (srun and mpirun launch, word-list and document
#                              mode), output byte-identical to the serial
#                              reference
#   slurm.sweep                a miniature slurm/scaling sweep + collector:
#                              CSV rows and PNG plots appear
#   slurm.refuse_corrupt       the collector refuses a corrupted output
#
# Every test skips (77) only where Slurm cannot be set up: not root, or
# slurm-wlm/munge neither installed nor installable (scripts/test.sh fails
# on such a skip where they are installed).
# Run them with: ctest -L slurm   (about 1-2 minutes, plus slurm-wlm's
# installation on a fresh machine). The cluster is private to this build
# tree: its state directory and ports follow from the build directory's
# path, so two checkouts testing at once (engineers, CI) and a developer's
# own slurm-local cluster leave each other alone.

set(SLURM_LOCAL ${PROJECT_SOURCE_DIR}/scripts/slurm-local)
set(SLURM_TEST bash ${CMAKE_CURRENT_SOURCE_DIR}/slurm/slurm_test.sh)
set(SLURM_WORK ${CMAKE_CURRENT_BINARY_DIR}/slurm-work)
string(MD5 slurm_tree_hash "${CMAKE_BINARY_DIR}")
string(SUBSTRING "${slurm_tree_hash}" 0 4 slurm_tree_hash)
math(EXPR slurm_port "7000 + (0x${slurm_tree_hash} % 2000) * 4")  # ports PORT..PORT+2
set(SLURM_ENV SPELLCHECK_TEST_SLURM_DEFAULT_DIR=/var/lib/spellcheck-slurm-ctest-${slurm_tree_hash}
              SPELLCHECK_TEST_SLURM_DEFAULT_PORT=${slurm_port})
if(TARGET commcost)
  set(SLURM_COMMCOST $<TARGET_FILE:commcost>)
else()
  set(SLURM_COMMCOST none)
endif()

add_test(NAME slurm.up COMMAND ${SLURM_TEST} up ${SLURM_LOCAL} 2)
set_tests_properties(slurm.up PROPERTIES FIXTURES_SETUP slurm TIMEOUT 600)

add_test(NAME slurm.down COMMAND ${SLURM_TEST} down ${SLURM_LOCAL})
set_tests_properties(slurm.down PROPERTIES FIXTURES_CLEANUP slurm TIMEOUT 120)

add_test(NAME slurm.sbatch
  COMMAND ${SLURM_TEST} sbatch ${SLURM_LOCAL} ${SLURM_WORK}/sbatch
          $<TARGET_FILE:spellcheck> $<TARGET_FILE:reference_spellcheck>
          ${SPELLCHECK_TEST_DATA_DIR}/dict/small-10k.txt ${SPELLCHECK_TEST_DATA_DIR}/words/d10k-w10k.txt
          ${SPELLCHECK_TEST_DATA_DIR}/dict/medium-100k.txt ${SPELLCHECK_TEST_DATA_DIR}/docs/small/vol01/quotes)
set_tests_properties(slurm.sbatch PROPERTIES FIXTURES_REQUIRED "slurm;data.small" TIMEOUT 600)

add_test(NAME slurm.sweep
  COMMAND ${SLURM_TEST} sweep ${SLURM_LOCAL} ${SLURM_WORK}/sweep
          $<TARGET_FILE:spellcheck> $<TARGET_FILE:reference_spellcheck> ${SLURM_COMMCOST}
          ${SPELLCHECK_TEST_DATA_DIR})
set_tests_properties(slurm.sweep PROPERTIES FIXTURES_REQUIRED "slurm;data.small"
  FIXTURES_SETUP slurm.sweep TIMEOUT 900)

add_test(NAME slurm.refuse_corrupt COMMAND ${SLURM_TEST} refuse ${SLURM_WORK}/sweep)
set_tests_properties(slurm.refuse_corrupt PROPERTIES FIXTURES_REQUIRED slurm.sweep TIMEOUT 300)

set_tests_properties(slurm.up slurm.down slurm.sbatch slurm.sweep slurm.refuse_corrupt PROPERTIES
  LABELS slurm RESOURCE_LOCK slurm SKIP_RETURN_CODE 77 ENVIRONMENT "${SLURM_ENV}")
