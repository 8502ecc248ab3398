# Everyday inputs (issue 12, tests/everyday_inputs.sh): standard input and
# named pipes, folder walks with hidden, binary and --exclude'd files,
# compressed files in every format, truncated and corrupt archives, progress
# lines in mpirun's captured stderr; each
# compared byte for byte with the serial reference on the plain files, under
# mpirun on 1-4 ranks. The dictionary is a sample of Debian's
# american-english-insane (skips without it).
set(INPUTS_WORDS /usr/share/dict/american-english-insane CACHE FILEPATH "word list for tests/everyday_inputs.sh")
foreach(part stdin tree compressed bad progress)
  add_test(NAME inputs.${part}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/everyday_inputs.sh --mpiexec ${MPIEXEC_EXECUTABLE} ${part}
            $<TARGET_FILE:spellcheck> $<TARGET_FILE:reference_spellcheck> ${INPUTS_WORDS})
  set_tests_properties(inputs.${part} PROPERTIES PROCESSORS 2 TIMEOUT 300
    LABELS "mpi;inputs" SKIP_RETURN_CODE 77)
endforeach()

# A rank with fewer CPUs than threads is warned about (tests/cpu_warning.sh).
add_test(NAME inputs.cpu_warning
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cpu_warning.sh ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:spellcheck>)
set_tests_properties(inputs.cpu_warning PROPERTIES PROCESSORS 2 TIMEOUT 120 LABELS "mpi;inputs")
