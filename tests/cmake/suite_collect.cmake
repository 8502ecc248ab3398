# The sweep collector's verification and tables (slurm/collect.py,
# sweep_verify.py, sweep_tables.py): pytest cases on miniature sweep
# directories (tests/slurm/collect_test.py): accepted runs, refused ones
# (wrong checksum, failed job, inconsistent geometry or counts), medians and
# speedups, the command line's exit codes. Seconds; no Slurm needed.

include(${CMAKE_CURRENT_LIST_DIR}/TestPython.cmake)
if(SPELLCHECK_TEST_PYTHON)
  add_test(NAME unit.collect
    COMMAND ${SPELLCHECK_TEST_PYTHON} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/slurm/collect_test.py)
  set_tests_properties(unit.collect PROPERTIES LABELS "unit;collect" TIMEOUT 120)
else()
  message(STATUS "No Python 3: test unit.collect not added")
endif()
