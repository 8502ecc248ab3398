# SPELLCHECK_TEST_PYTHON: the Python 3 that the Python tests run with.
# Debian's /usr/bin/python3 first: its python3-pytest and python3-matplotlib
# (scripts/install-deps.sh) serve that one, not a python3 earlier on PATH.
include_guard(GLOBAL)
find_program(SPELLCHECK_TEST_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT SPELLCHECK_TEST_PYTHON)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    set(SPELLCHECK_TEST_PYTHON ${Python3_EXECUTABLE} CACHE FILEPATH "Python 3 for the tests" FORCE)
  endif()
endif()
