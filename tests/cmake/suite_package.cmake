# Packaging (label "package"): the man page in step with --help, and the
# Debian package from cpack installed into a scratch root and run there
# (tests/package_test.sh; a few seconds: the build is not redone).

include(${CMAKE_CURRENT_LIST_DIR}/TestPython.cmake)
if(SPELLCHECK_TEST_PYTHON)
  add_test(NAME package.man_page
    COMMAND ${SPELLCHECK_TEST_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/man_page_test.py
            $<TARGET_FILE:spellcheck> ${PROJECT_SOURCE_DIR}/packaging/spellcheck.1)
  set_tests_properties(package.man_page PROPERTIES LABELS "package" TIMEOUT 60)
endif()

add_test(NAME package.deb COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/package_test.sh ${PROJECT_BINARY_DIR})
set_tests_properties(package.deb PROPERTIES LABELS "package" TIMEOUT 300 SKIP_RETURN_CODE 77)
