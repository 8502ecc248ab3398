# End-to-end tests: spellcheck's output, byte for byte, against the serial
# reference (tests/reference/reference_spellcheck.cpp), on 1..4 ranks and
# 1..2 threads.
#
# For each expected output a fixture test runs reference_spellcheck into the
# build tree (e2e.ref.*); the e2e.* tests then run spellcheck under mpirun,
# wrapped in tests/expect_same.sh, which compares (and skips with 77 when the
# expected output or an input is missing).
#
#   tests/cases/<case>/      hand-made edge cases (see tests/cases/README.md):
#     dict.txt               the dictionary
#     words.txt              input for --words mode (optional)
#     docs/                  input for document mode (optional)
#     inputs.txt             document-mode inputs instead of docs/, one per
#                            line, relative to the case; @EMPTY_DIR@ is an
#                            empty nested directory made by a fixture
#     options.txt            extra options for both programs (optional)
#     generate.sh            makes words.txt and docs/ at test time instead
#                            (bash generate.sh OUTDIR, a fixture; big inputs)
#   ${SPELLCHECK_TEST_DATA_DIR}   datasets from tests/data/make_test_data.py,
#                            built by the data.small fixture if missing; the
#                            reference's outputs on them are cross-checked
#                            with the generator's own count of misspelled
#                            words (COUNTS.txt; line count)

set(E2E_EXPECTED_DIR ${CMAKE_CURRENT_BINARY_DIR}/expected)
set(E2E_EMPTY_DIR ${CMAKE_CURRENT_BINARY_DIR}/e2e-empty-dir)
# git keeps no empty directory: the fixture makes one, with an empty one inside.
add_test(NAME e2e.empty_dir COMMAND ${CMAKE_COMMAND} -E make_directory ${E2E_EMPTY_DIR}/nested/empty)
set_tests_properties(e2e.empty_dir PROPERTIES FIXTURES_SETUP e2e.empty_dir LABELS "e2e;cases" TIMEOUT 30)
set(E2E_EXPECT_SAME bash ${CMAKE_CURRENT_SOURCE_DIR}/expect_same.sh)

file(MAKE_DIRECTORY ${E2E_EXPECTED_DIR})

# Every mpirun costs 1-3 s here (2 cores, oversubscribed, shared), so by
# default each comparison runs on p1.t1, p2.t1, p3.t2 and p4.t2: one thread
# and two, even and odd rank counts. ON: the full {1,2,3,4} x {1,2} matrix.
option(SPELLCHECK_E2E_FULL_MATRIX "e2e tests on every rank count x {1,2} threads" OFF)

# e2e_runs(NAME n [QUICK] [MATRIX "ranks|threads"...] [TIMEOUT s] FIXTURES f...
#          LABELS l... WRAP args... -- COMMAND exe args...)
# adds the e2e tests of one comparison over that rank x thread matrix;
# QUICK (simple cases): only p1.t1 and p4.t2; MATRIX: the given parts
# (pairs of comparisons that share the code and split the matrix).
function(e2e_runs)
  cmake_parse_arguments(E "QUICK" "NAME;TIMEOUT" "MATRIX;FIXTURES;LABELS;WRAP;COMMAND" ${ARGN})
  if(NOT E_TIMEOUT)
    set(E_TIMEOUT 60)
  endif()
  if(SPELLCHECK_E2E_FULL_MATRIX)
    set(matrix "1 2 3 4|1 2")
  elseif(E_MATRIX)
    set(matrix ${E_MATRIX})
  elseif(E_QUICK)
    set(matrix "1|1" "4|2")
  else()
    set(matrix "1 2|1" "3 4|2")
  endif()
  foreach(part IN LISTS matrix)
    string(REPLACE "|" ";" part "${part}")
    list(GET part 0 ranks)
    list(GET part 1 threads)
    separate_arguments(ranks)
    separate_arguments(threads)
    spellcheck_add_mpi_test(NAME ${E_NAME} RANKS ${ranks} THREADS ${threads}
      TIMEOUT ${E_TIMEOUT} FIXTURES "${E_FIXTURES}" LABELS ${E_LABELS}
      WRAP ${E_WRAP} COMMAND ${E_COMMAND})
  endforeach()
endfunction()

# e2e_reference(NAME n EXPECTED file [NEED paths...] [FIXTURES f...] ARGS args...)
# adds the fixture test e2e.ref.<n> that writes the expected output; it skips
# (77) when a NEED path is missing.
function(e2e_reference)
  cmake_parse_arguments(R "" "NAME;EXPECTED" "NEED;FIXTURES;ARGS" ${ARGN})
  # bash -c: skip unless every NEED path exists, then run the reference.
  list(LENGTH R_NEED nneed)
  add_test(NAME e2e.ref.${R_NAME}
    COMMAND bash -c "n=$1; shift; for p in \"\${@:1:n}\"; do [ -e \"$p\" ] || { echo \"SKIP: missing $p\"; rm -f \"${R_EXPECTED}\"; exit 77; }; done; shift $n; exec \"$@\""
            e2e-ref ${nneed} ${R_NEED}
            $<TARGET_FILE:reference_spellcheck> ${R_ARGS} -o ${R_EXPECTED})
  set_tests_properties(e2e.ref.${R_NAME} PROPERTIES
    FIXTURES_SETUP e2e.ref.${R_NAME} FIXTURES_REQUIRED "${R_FIXTURES}"
    SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e;reference")
endfunction()

# ---------------------------------------------------------------------------
# Hand-made cases
# ---------------------------------------------------------------------------

file(GLOB e2e_case_dirs LIST_DIRECTORIES true CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_SOURCE_DIR}/cases/*)
list(SORT e2e_case_dirs)
# Simple cases run on p1.t1 and p4.t2 only; some cases also run with
# -o FILE, and with --batch-bytes 1 (one request per message) and without
# the candidate prefilters.
set(e2e_quick_cases spec_example all_correct empty_inputs max_word_length_5 three_entry_dict
    blanks)
set(e2e_out_cases case_rule empty_inputs)
set(e2e_stress_cases random_small invalid_utf8 nested_dirs)

foreach(dir IN LISTS e2e_case_dirs)
  if(NOT IS_DIRECTORY ${dir} OR NOT EXISTS ${dir}/dict.txt)
    continue()
  endif()
  get_filename_component(case ${dir} NAME)
  set(opts "")
  if(EXISTS ${dir}/options.txt)
    file(READ ${dir}/options.txt opts)
    string(STRIP "${opts}" opts)
    separate_arguments(opts UNIX_COMMAND "${opts}")
  endif()

  set(modes "")
  set(fixtures e2e.empty_dir)
  set(input_dir ${dir})
  if(EXISTS ${dir}/generate.sh)
    # Inputs made by a fixture in the build tree: both modes.
    set(input_dir ${CMAKE_CURRENT_BINARY_DIR}/e2e-generated/${case})
    add_test(NAME e2e.gen.${case} COMMAND bash ${dir}/generate.sh ${input_dir})
    set_tests_properties(e2e.gen.${case} PROPERTIES FIXTURES_SETUP e2e.gen.${case}
      TIMEOUT 120 LABELS "e2e")
    list(APPEND fixtures e2e.gen.${case})
    set(modes words docs)
  endif()
  if(EXISTS ${dir}/words.txt)
    list(APPEND modes words)
  endif()
  if(IS_DIRECTORY ${dir}/docs OR EXISTS ${dir}/inputs.txt)
    list(APPEND modes docs)
  endif()
  list(REMOVE_DUPLICATES modes)

  foreach(mode IN LISTS modes)
    if(mode STREQUAL "words")
      set(mode_flag --words)
      set(inputs ${input_dir}/words.txt)
    else()
      set(mode_flag "")
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
      else()
        set(inputs ${input_dir}/docs)
      endif()
    endif()

    set(name case.${case}.${mode})
    set(expected ${E2E_EXPECTED_DIR}/${name}.txt)
    set(args ${opts} ${mode_flag} ${dir}/dict.txt ${inputs})
    e2e_reference(NAME ${name} EXPECTED ${expected} FIXTURES ${fixtures} ARGS ${args})
    set(quick "")
    if(case IN_LIST e2e_quick_cases)
      set(quick QUICK)
    endif()
    e2e_runs(NAME e2e.${name} ${quick}
      FIXTURES e2e.ref.${name} ${fixtures} LABELS e2e cases
      WRAP ${E2E_EXPECT_SAME} ${expected} --
      COMMAND $<TARGET_FILE:spellcheck> ${args})
    if(case IN_LIST e2e_out_cases)
      spellcheck_add_mpi_test(NAME e2e.${name}.out RANKS 3 THREADS 2 TIMEOUT 60
        FIXTURES "e2e.ref.${name};${fixtures}" LABELS "e2e;cases"
        WRAP ${E2E_EXPECT_SAME} --o ${expected} --
        COMMAND $<TARGET_FILE:spellcheck> ${args})
    endif()
    if(case IN_LIST e2e_stress_cases)
      spellcheck_add_mpi_test(NAME e2e.${name}.batch1 RANKS 3 THREADS 2 TIMEOUT 60
        FIXTURES "e2e.ref.${name};${fixtures}" LABELS "e2e;cases;stress"
        WRAP ${E2E_EXPECT_SAME} ${expected} --
        COMMAND $<TARGET_FILE:spellcheck> --batch-bytes 1 ${args})
      # Who serves other ranks' lookups changes nothing but speed: both
      # modes whatever auto picks on the machine (one with a dedicated
      # thread serving one-record messages too).
      if(case STREQUAL "random_small")
        set(comm_ranks 1 2 3 4)
        set(comm_threads 1 2)
      else()
        set(comm_ranks 3)
        set(comm_threads 2)
      endif()
      spellcheck_add_mpi_test(NAME e2e.${name}.dedicated RANKS ${comm_ranks} THREADS ${comm_threads} TIMEOUT 60
        FIXTURES "e2e.ref.${name};${fixtures}" LABELS "e2e;cases;stress"
        WRAP ${E2E_EXPECT_SAME} ${expected} --
        COMMAND $<TARGET_FILE:spellcheck> --comm-thread dedicated ${args})
      spellcheck_add_mpi_test(NAME e2e.${name}.shared RANKS 2 THREADS 2 TIMEOUT 60
        FIXTURES "e2e.ref.${name};${fixtures}" LABELS "e2e;cases;stress"
        WRAP ${E2E_EXPECT_SAME} ${expected} --
        COMMAND $<TARGET_FILE:spellcheck> --comm-thread shared ${args})
      spellcheck_add_mpi_test(NAME e2e.${name}.dedicated.batch1 RANKS 4 THREADS 1 TIMEOUT 60
        FIXTURES "e2e.ref.${name};${fixtures}" LABELS "e2e;cases;stress"
        WRAP ${E2E_EXPECT_SAME} ${expected} --
        COMMAND $<TARGET_FILE:spellcheck> --comm-thread dedicated --batch-bytes 1 ${args})
      # The prefilters change nothing but speed.
      spellcheck_add_mpi_test(NAME e2e.${name}.noprefilter RANKS 2 THREADS 2 TIMEOUT 60
        FIXTURES "e2e.ref.${name};${fixtures}" LABELS "e2e;cases;stress"
        WRAP ${E2E_EXPECT_SAME} ${expected} --
        COMMAND $<TARGET_FILE:spellcheck> --no-trigram-filter --no-affix-filter ${args})
    endif()
  endforeach()
endforeach()

# ---------------------------------------------------------------------------
# Datasets (tests/data/make_test_data.py)
# ---------------------------------------------------------------------------

add_test(NAME data.small COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/make_data.sh ${SPELLCHECK_TEST_DATA_DIR})
set_tests_properties(data.small PROPERTIES FIXTURES_SETUP data.small TIMEOUT 600 LABELS "e2e;data")

set(D ${SPELLCHECK_TEST_DATA_DIR})

# e2e_dataset(NAME n [FULL] [RANKS r... THREADS t...] [STRESS_RANKS r...]
#             [TIMEOUT s] NEED paths... ARGS args...)
# FULL: the e2e_runs matrix; else the RANKS x THREADS given.
function(e2e_dataset)
  cmake_parse_arguments(X "FULL" "NAME;TIMEOUT" "RANKS;THREADS;STRESS_RANKS;NEED;ARGS" ${ARGN})
  if(NOT X_TIMEOUT)
    set(X_TIMEOUT 120)
  endif()
  set(name data.${X_NAME})
  set(expected ${E2E_EXPECTED_DIR}/${name}.txt)
  set(need "")
  foreach(p IN LISTS X_NEED)
    list(APPEND need --need ${p})
  endforeach()
  e2e_reference(NAME ${name} EXPECTED ${expected} NEED ${X_NEED} FIXTURES data.small ARGS ${X_ARGS})
  # The reference itself, cross-checked by the generator's count.
  add_test(NAME e2e.refcheck.${name}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/make_data.sh --check-count ${SPELLCHECK_SHARED_DIR}
            ${expected} ${X_ARGS})
  set_tests_properties(e2e.refcheck.${name} PROPERTIES FIXTURES_REQUIRED e2e.ref.${name}
    SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e;reference;data")
  if(X_FULL)
    e2e_runs(NAME e2e.${name} TIMEOUT ${X_TIMEOUT} FIXTURES e2e.ref.${name} LABELS e2e data
      WRAP ${E2E_EXPECT_SAME} ${need} ${expected} --
      COMMAND $<TARGET_FILE:spellcheck> ${X_ARGS})
  else()
    spellcheck_add_mpi_test(NAME e2e.${name} RANKS ${X_RANKS} THREADS ${X_THREADS}
      TIMEOUT ${X_TIMEOUT} FIXTURES "e2e.ref.${name}" LABELS "e2e;data"
      WRAP ${E2E_EXPECT_SAME} ${need} ${expected} --
      COMMAND $<TARGET_FILE:spellcheck> ${X_ARGS})
  endif()
  if(X_STRESS_RANKS)
    spellcheck_add_mpi_test(NAME e2e.${name}.batch1 RANKS ${X_STRESS_RANKS} THREADS 2
      TIMEOUT ${X_TIMEOUT} FIXTURES "e2e.ref.${name}" LABELS "e2e;data;stress"
      WRAP ${E2E_EXPECT_SAME} ${need} ${expected} --
      COMMAND $<TARGET_FILE:spellcheck> --batch-bytes 1 ${X_ARGS})
  endif()
endfunction()

# Word-list mode: the course's datasets (words/DATASETS.txt); the reference
# takes about 1 s on each, 10 s on large-w650k. The small and the medium set
# get the whole matrix, the others a few runs.
e2e_dataset(NAME words.d10k-w10k FULL STRESS_RANKS 4
  NEED ${D}/dict/small-10k.txt ${D}/words/d10k-w10k.txt
  ARGS --words ${D}/dict/small-10k.txt ${D}/words/d10k-w10k.txt)
e2e_dataset(NAME words.d10k-w100k RANKS 3 THREADS 1 2
  NEED ${D}/dict/small-10k.txt ${D}/words/d10k-w100k.txt
  ARGS --words ${D}/dict/small-10k.txt ${D}/words/d10k-w100k.txt)
e2e_dataset(NAME words.d100k-w10k RANKS 2 THREADS 2
  NEED ${D}/dict/medium-100k.txt ${D}/words/d100k-w10k.txt
  ARGS --words ${D}/dict/medium-100k.txt ${D}/words/d100k-w10k.txt)
e2e_dataset(NAME words.d100k-w100k FULL
  NEED ${D}/dict/medium-100k.txt ${D}/words/d100k-w100k.txt
  ARGS --words ${D}/dict/medium-100k.txt ${D}/words/d100k-w100k.txt)
e2e_dataset(NAME words.large-w650k RANKS 4 THREADS 2 TIMEOUT 300
  NEED ${D}/dict/american-insane.txt ${D}/words/large-w650k.txt
  ARGS --words ${D}/dict/american-insane.txt ${D}/words/large-w650k.txt)

# Document mode: docs/small (88 files, 5 MB) with the medium dictionary.
e2e_dataset(NAME docs.small FULL STRESS_RANKS 3 TIMEOUT 300
  NEED ${D}/dict/medium-100k.txt ${D}/docs/small
  ARGS ${D}/dict/medium-100k.txt ${D}/docs/small)
