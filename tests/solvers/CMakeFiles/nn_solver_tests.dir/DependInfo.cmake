
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/tests/solvers/test_adam_family_updates.cpp" "tests/solvers/CMakeFiles/nn_solver_tests.dir/test_adam_family_updates.cpp.o" "gcc" "tests/solvers/CMakeFiles/nn_solver_tests.dir/test_adam_family_updates.cpp.o.d"
  "/work/wt-onnx18/tests/solvers/test_initializer.cpp" "tests/solvers/CMakeFiles/nn_solver_tests.dir/test_initializer.cpp.o" "gcc" "tests/solvers/CMakeFiles/nn_solver_tests.dir/test_initializer.cpp.o.d"
  "/work/wt-onnx18/tests/solvers/test_sgd_adaptive_updates.cpp" "tests/solvers/CMakeFiles/nn_solver_tests.dir/test_sgd_adaptive_updates.cpp.o" "gcc" "tests/solvers/CMakeFiles/nn_solver_tests.dir/test_sgd_adaptive_updates.cpp.o.d"
  "/work/wt-onnx18/tests/solvers/test_solver_api.cpp" "tests/solvers/CMakeFiles/nn_solver_tests.dir/test_solver_api.cpp.o" "gcc" "tests/solvers/CMakeFiles/nn_solver_tests.dir/test_solver_api.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
