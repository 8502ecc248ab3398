# spellcheck_add_mpi_test(NAME n RANKS 1 2 3 4 [THREADS 1 2] [TIMEOUT s] [FIXTURES f]
#                         [LABELS l...] [WRAP driver args... --] COMMAND exe args...)
# adds one ctest entry n.p<ranks>.t<threads> per combination, run under
# ${MPIEXEC_EXECUTABLE} -n p, oversubscribed (this machine has 2 cores).
function(spellcheck_add_mpi_test)
  cmake_parse_arguments(A "" "NAME;TIMEOUT;FIXTURES" "RANKS;THREADS;WRAP;COMMAND;LABELS" ${ARGN})
  if(NOT A_THREADS)
    set(A_THREADS 1)
  endif()
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)
  endif()
  # Open MPI reads these, other MPIs ignore them; CI runs as root.
  set(env OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
          OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
          OMPI_MCA_orte_execute_quiet=1 ASAN_OPTIONS=detect_leaks=0)
  foreach(p IN LISTS A_RANKS)
    # A test claims at most two of ctest's slots, however many ranks: they
    # wait on each other more than they compute, and a 3-4 rank test that
    # claimed all four slots ran alone with the cores half idle (the
    # Release pass's last 2.5 minutes, 2026-12-07).
    set(slots ${p})
    if(slots GREATER 2)
      set(slots 2)
    endif()
    foreach(t IN LISTS A_THREADS)
      set(name ${A_NAME}.p${p}.t${t})
      add_test(NAME ${name} COMMAND ${A_WRAP} ${MPIEXEC_EXECUTABLE}
               ${MPIEXEC_NUMPROC_FLAG} ${p} ${MPIEXEC_PREFLAGS} ${A_COMMAND})
      set_tests_properties(${name} PROPERTIES PROCESSORS ${slots} TIMEOUT ${A_TIMEOUT}
        LABELS "mpi;${A_LABELS}" SKIP_RETURN_CODE 77 FIXTURES_REQUIRED "${A_FIXTURES}"
        ENVIRONMENT "${env};OMP_NUM_THREADS=${t}")
    endforeach()
  endforeach()
endfunction()
