# Compiled dictionaries (tests/compiled.sh): `spellcheck compile` gives the
# same file from 1-4 ranks; runs on the compiled file print what the serial
# reference prints for the word list on 1-8 ranks (oversubscribed), in
# document and --words mode, with --per-document and a run-time
# --extra-dict; ranked output as on the word list; truncated, damaged,
# other-format and too-few-bucket files refused with one line and exit 2.
add_test(NAME compiled
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/compiled.sh --mpiexec ${MPIEXEC_EXECUTABLE}
          $<TARGET_FILE:spellcheck> $<TARGET_FILE:reference_spellcheck> /usr/share/dict/american-english-insane)
set_tests_properties(compiled PROPERTIES PROCESSORS 2 TIMEOUT 600 LABELS "mpi;compiled")

# Compiled hunspell dictionaries (tests/compiled_hunspell.sh): compile on 1
# and 3 ranks gives one file; runs on it print what runs on the .dic print
# (1 and 3 ranks, documents, --words, ranked with the file's index and
# without);
# damaged and cut sections and a run-time --extra-dict refused.
add_test(NAME compiled_hunspell
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/compiled_hunspell.sh --mpiexec ${MPIEXEC_EXECUTABLE}
          $<TARGET_FILE:spellcheck> /usr/share/dict/american-english-insane
          /usr/share/hunspell/en_US.dic /usr/share/hunspell/de_DE.dic)
set_tests_properties(compiled_hunspell PROPERTIES PROCESSORS 2 TIMEOUT 600 LABELS "mpi;compiled")
