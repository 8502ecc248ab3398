# The code's shape: stages include only the stages before them
# (scripts/check-layers).
add_test(NAME structure.layers COMMAND python3 ${PROJECT_SOURCE_DIR}/scripts/check-layers ${PROJECT_SOURCE_DIR})
set_tests_properties(structure.layers PROPERTIES LABELS "structure" TIMEOUT 60)
