# End-to-end tests of --suggest ranked (uses e2e_runs, e2e_reference and the
# e2e.empty_dir fixture of suite_e2e.cmake, included before this file).
#
# 1. Candidate sets: reference_spellcheck --suggest ranked lists EVERY entry
#    within OSA distance D (brute force, code points, the ranked case rule
#    and case display); spellcheck with --top 1000 --no-sound-alikes must
#    give the same set per word (tests/ranked_e2e.sh sets: candidates sorted
#    within each line, lines sorted, since the reference does not rank).
#    On the hand-made cases and on a generated one (ranked_e2e.sh gen).
# 2. Byte identity of the real ranked output (default --top, sound-alikes,
#    a generated frequency list; text and jsonl; --batch-bytes 1) on ranks
#    1-4 x threads 1-2 against spellcheck's own 1-rank 1-thread output.

if(NOT COMMAND e2e_runs OR NOT COMMAND e2e_reference)
  message(FATAL_ERROR "suite_ranked.cmake needs suite_e2e.cmake (e2e_runs, e2e_reference) included first")
endif()

set(RANKED_DIR ${CMAKE_CURRENT_BINARY_DIR}/ranked)
set(RANKED_GEN ${RANKED_DIR}/generated)
set(RANKED_SCRIPT bash ${CMAKE_CURRENT_SOURCE_DIR}/ranked_e2e.sh)
file(MAKE_DIRECTORY ${RANKED_DIR})

add_test(NAME ranked.gen COMMAND ${RANKED_SCRIPT} gen ${RANKED_GEN})
set_tests_properties(ranked.gen PROPERTIES FIXTURES_SETUP ranked.gen TIMEOUT 120 LABELS "e2e;ranked")

set(RANKED_SET_OPTS --suggest ranked --top 1000 --no-sound-alikes)
# Ranked document mode filters URLs and tokens with digits by default
# (--filter auto; the cases hold no marked-up file names): the reference
# is told to do the same, and spellcheck the same explicitly.
set(RANKED_DOC_FILTERS --filter url,digits)

# ranked_sets(NAME n [QUICK] DISTANCE d [RARE r] FIXTURES f... ARGS args...)
# RARE: --rare-distance for both programs, 2 unless given (every entry within
# d, whatever frequency list spellcheck finds by default).
function(ranked_sets)
  cmake_parse_arguments(S "QUICK" "NAME;DISTANCE;RARE" "FIXTURES;ARGS" ${ARGN})
  if(NOT DEFINED S_RARE)
    set(S_RARE 2)
  endif()
  set(expected ${RANKED_DIR}/${S_NAME}.txt)
  e2e_reference(NAME ranked.${S_NAME} EXPECTED ${expected} FIXTURES ${S_FIXTURES}
    ARGS ${RANKED_SET_OPTS} --rare-distance ${S_RARE} --max-distance ${S_DISTANCE} ${S_ARGS})
  set(quick "")
  if(S_QUICK)
    set(quick QUICK)
  endif()
  e2e_runs(NAME ranked.sets.${S_NAME} ${quick}
    FIXTURES e2e.ref.ranked.${S_NAME} ${S_FIXTURES} LABELS e2e ranked
    WRAP ${RANKED_SCRIPT} sets ${expected} --
    COMMAND $<TARGET_FILE:spellcheck> -q ${RANKED_SET_OPTS} --rare-distance ${S_RARE} --max-distance ${S_DISTANCE}
            ${S_ARGS})
endfunction()

# --- Hand-made cases (tests/cases), both modes where the case has them.
# big_inputs is left out (18 MB of generated input: the reference's brute
# force over every entry is the slow part).
file(GLOB ranked_case_dirs LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cases/*)
list(SORT ranked_case_dirs)
foreach(dir IN LISTS ranked_case_dirs)
  get_filename_component(case ${dir} NAME)
  if(NOT IS_DIRECTORY ${dir} OR NOT EXISTS ${dir}/dict.txt OR EXISTS ${dir}/generate.sh)
    continue()
  endif()
  set(opts "")
  if(EXISTS ${dir}/options.txt)
    file(READ ${dir}/options.txt opts)
    string(STRIP "${opts}" opts)
    separate_arguments(opts UNIX_COMMAND "${opts}")
  endif()
  if(EXISTS ${dir}/words.txt)
    ranked_sets(NAME case.${case}.words QUICK DISTANCE 2 FIXTURES e2e.empty_dir
      ARGS ${opts} --words ${dir}/dict.txt ${dir}/words.txt)
  endif()
  set(inputs "")
  if(EXISTS ${dir}/inputs.txt)
    file(STRINGS ${dir}/inputs.txt lines)
    foreach(line IN LISTS lines)
      string(STRIP "${line}" line)
      if(line STREQUAL "")
        continue()
      elseif(line STREQUAL "@EMPTY_DIR@")
        list(APPEND inputs ${E2E_EMPTY_DIR})
      else()
        list(APPEND inputs ${dir}/${line})
      endif()
    endforeach()
  elseif(IS_DIRECTORY ${dir}/docs)
    set(inputs ${dir}/docs)
  endif()
  if(inputs)
    ranked_sets(NAME case.${case}.docs QUICK DISTANCE 2 FIXTURES e2e.empty_dir
      ARGS ${opts} ${RANKED_DOC_FILTERS} ${dir}/dict.txt ${inputs})
  endif()
endforeach()
# Distance 1 on the case with the most neighbours.
ranked_sets(NAME case.random_small.words.d1 QUICK DISTANCE 1 FIXTURES e2e.empty_dir
  ARGS --words ${CMAKE_CURRENT_SOURCE_DIR}/cases/random_small/dict.txt
       ${CMAKE_CURRENT_SOURCE_DIR}/cases/random_small/words.txt)

# --- The generated case: the whole rank x thread matrix.
foreach(d 1 2)
  ranked_sets(NAME generated.words.d${d} DISTANCE ${d} FIXTURES ranked.gen
    ARGS --words ${RANKED_GEN}/dict.txt ${RANKED_GEN}/words.txt)
endforeach()
ranked_sets(NAME generated.docs.d2 DISTANCE 2 FIXTURES ranked.gen
  ARGS ${RANKED_DOC_FILTERS} ${RANKED_GEN}/dict.txt ${RANKED_GEN}/docs)
# With a frequency list: entries without a (positive) count only within the
# rare distance.
foreach(r 0 1)
  ranked_sets(NAME generated.words.d2.rare${r} DISTANCE 2 RARE ${r} FIXTURES ranked.gen
    ARGS --frequencies ${RANKED_GEN}/freq.txt --words ${RANKED_GEN}/dict.txt ${RANKED_GEN}/words.txt)
endforeach()
ranked_sets(NAME generated.docs.d1.rare0 QUICK DISTANCE 1 RARE 0 FIXTURES ranked.gen
  ARGS --frequencies ${RANKED_GEN}/freq.txt ${RANKED_DOC_FILTERS} ${RANKED_GEN}/dict.txt ${RANKED_GEN}/docs)
# Typos shorter than 6 letters get one edit by default (--two-edits-from,
# the runs above); every typo two, and a shorter cut.
foreach(n 0 4)
  ranked_sets(NAME generated.words.d2.two${n} QUICK DISTANCE 2 FIXTURES ranked.gen
    ARGS --two-edits-from ${n} --words ${RANKED_GEN}/dict.txt ${RANKED_GEN}/words.txt)
endforeach()

# --- Byte identity of the real output against 1 rank, 1 thread.
# ranked_same(NAME n ARGS args...): a fixture writes spellcheck's output on
# 1 rank and 1 thread, then every rank x thread combination must match it.
function(ranked_same)
  cmake_parse_arguments(X "" "NAME" "RANKS;THREADS;ARGS" ${ARGN})
  set(expected ${RANKED_DIR}/same.${X_NAME}.txt)
  add_test(NAME ranked.same.ref.${X_NAME}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 1 ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:spellcheck> -q --suggest ranked ${X_ARGS} -o ${expected})
  set_tests_properties(ranked.same.ref.${X_NAME} PROPERTIES
    FIXTURES_SETUP ranked.same.ref.${X_NAME} FIXTURES_REQUIRED ranked.gen
    TIMEOUT 120 LABELS "e2e;ranked"
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_orte_execute_quiet=1;OMP_NUM_THREADS=1")
  if(NOT X_RANKS)
    set(X_RANKS 1 2 3 4)
  endif()
  if(NOT X_THREADS)
    set(X_THREADS 1 2)
  endif()
  spellcheck_add_mpi_test(NAME ranked.same.${X_NAME} RANKS ${X_RANKS} THREADS ${X_THREADS} TIMEOUT 120
    FIXTURES "ranked.same.ref.${X_NAME};ranked.gen" LABELS "e2e;ranked"
    WRAP ${E2E_EXPECT_SAME} ${expected} --
    COMMAND $<TARGET_FILE:spellcheck> -q --suggest ranked ${X_ARGS})
endfunction()

set(RG ${RANKED_GEN})
ranked_same(NAME words.text ARGS --frequencies ${RG}/freq.txt --words ${RG}/dict.txt ${RG}/words.txt)
ranked_same(NAME words.jsonl ARGS --format jsonl --frequencies ${RG}/freq.txt --words ${RG}/dict.txt ${RG}/words.txt)
ranked_same(NAME docs.jsonl ARGS --format jsonl --frequencies ${RG}/freq.txt ${RG}/dict.txt ${RG}/docs)
ranked_same(NAME docs.text.d1 ARGS --max-distance 1 --top 3 --frequencies ${RG}/freq.txt ${RG}/dict.txt ${RG}/docs)
# --batch-bytes 1 with the expected output of the plain run.
spellcheck_add_mpi_test(NAME ranked.same.words.text.batch1 RANKS 1 2 3 4 THREADS 1 2 TIMEOUT 120
  FIXTURES "ranked.same.ref.words.text;ranked.gen" LABELS "e2e;ranked;stress"
  WRAP ${E2E_EXPECT_SAME} ${RANKED_DIR}/same.words.text.txt --
  COMMAND $<TARGET_FILE:spellcheck> -q --suggest ranked --batch-bytes 1 --frequencies ${RG}/freq.txt
          --words ${RG}/dict.txt ${RG}/words.txt)

# 3. --report in ranked mode: rows agree with the ranked output (words,
#    order, candidates) and with the SPEC report (occurrences, first
#    location), on the generated case.
foreach(p 1 3)
  add_test(NAME ranked.report.p${p}
    COMMAND ${RANKED_SCRIPT} report ${MPIEXEC_EXECUTABLE} ${p} $<TARGET_FILE:spellcheck>
            ${RANKED_GEN}/dict.txt ${RANKED_GEN}/docs ${RANKED_GEN}/freq.txt)
  set_tests_properties(ranked.report.p${p} PROPERTIES FIXTURES_REQUIRED ranked.gen TIMEOUT 300
    LABELS "e2e;ranked;report"
    ENVIRONMENT "OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_hwloc_base_binding_policy=none;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=2")
endforeach()

# 4. The collection's counts in the prior (document mode), on 1 and 3 ranks.
foreach(p 1 3)
  add_test(NAME ranked.collection.p${p}
    COMMAND ${RANKED_SCRIPT} collection ${MPIEXEC_EXECUTABLE} ${p} $<TARGET_FILE:spellcheck> ${RANKED_DIR}/collection.p${p})
  set_tests_properties(ranked.collection.p${p} PROPERTIES TIMEOUT 120 LABELS "e2e;ranked"
    ENVIRONMENT "OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_hwloc_base_binding_policy=none;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=2")
endforeach()

# --index-cache, compile on first use: written, read on 3 and 2 ranks
# (through SPELLCHECK_INDEX_CACHE too), SPEC and ranked files apart,
# --extra-dict and a changed dictionary make new files, each run's output
# the same as without a cache; a damaged file or a file as the directory
# is an error (tests/index_cache.sh).
spellcheck_add_mpi_test(NAME ranked.index_cache RANKS 3 THREADS 2 TIMEOUT 120
  FIXTURES ranked.gen LABELS "e2e;ranked"
  WRAP bash ${CMAKE_CURRENT_SOURCE_DIR}/index_cache.sh --
  COMMAND $<TARGET_FILE:spellcheck> --frequencies ${RG}/freq.txt ${RG}/dict.txt ${RG}/docs)
