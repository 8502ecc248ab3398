# The suggestion-quality scorer (bench/quality_score.py, used by
# bench/quality.sh): a hand-made corpus with outputs in spellcheck's and in
# aspell -a's format, exact counts (tests/quality_score_test.py, plain
# unittest: no pytest needed). Skipped when there is no Python 3.

find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME unit.quality_score
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/quality_score_test.py)
  set_tests_properties(unit.quality_score PROPERTIES LABELS "unit" TIMEOUT 60)
else()
  message(STATUS "No Python 3: test unit.quality_score not added")
endif()
