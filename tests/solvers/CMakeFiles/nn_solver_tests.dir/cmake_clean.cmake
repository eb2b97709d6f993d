file(REMOVE_RECURSE
  "CMakeFiles/nn_solver_tests.dir/test_adam_family_updates.cpp.o"
  "CMakeFiles/nn_solver_tests.dir/test_adam_family_updates.cpp.o.d"
  "CMakeFiles/nn_solver_tests.dir/test_initializer.cpp.o"
  "CMakeFiles/nn_solver_tests.dir/test_initializer.cpp.o.d"
  "CMakeFiles/nn_solver_tests.dir/test_sgd_adaptive_updates.cpp.o"
  "CMakeFiles/nn_solver_tests.dir/test_sgd_adaptive_updates.cpp.o.d"
  "CMakeFiles/nn_solver_tests.dir/test_solver_api.cpp.o"
  "CMakeFiles/nn_solver_tests.dir/test_solver_api.cpp.o.d"
  "nn_solver_tests"
  "nn_solver_tests.pdb"
  "nn_solver_tests[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_solver_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
