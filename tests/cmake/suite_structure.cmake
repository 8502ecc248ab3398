# The code's shape: stages include only the stages before them
# (scripts/check-layers), and no function of src/ is over 100 lines
# (scripts/long-functions, from Universal Ctags' definitions).
add_test(NAME structure.layers COMMAND python3 ${PROJECT_SOURCE_DIR}/scripts/check-layers ${PROJECT_SOURCE_DIR})
add_test(NAME structure.function_length COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/long-functions 100)
set_tests_properties(structure.layers structure.function_length PROPERTIES LABELS "structure" TIMEOUT 60)
