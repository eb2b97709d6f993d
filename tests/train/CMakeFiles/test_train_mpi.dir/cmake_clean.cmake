file(REMOVE_RECURSE
  "CMakeFiles/test_train_mpi.dir/train_cli_util.cpp.o"
  "CMakeFiles/test_train_mpi.dir/train_cli_util.cpp.o.d"
  "CMakeFiles/test_train_mpi.dir/train_mpi_test.cpp.o"
  "CMakeFiles/test_train_mpi.dir/train_mpi_test.cpp.o.d"
  "test_train_mpi"
  "test_train_mpi.pdb"
  "test_train_mpi[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/test_train_mpi.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
