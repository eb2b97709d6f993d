file(REMOVE_RECURSE
  "CMakeFiles/test_train_cli.dir/train_bad_input_test.cpp.o"
  "CMakeFiles/test_train_cli.dir/train_bad_input_test.cpp.o.d"
  "CMakeFiles/test_train_cli.dir/train_cli_misc_test.cpp.o"
  "CMakeFiles/test_train_cli.dir/train_cli_misc_test.cpp.o.d"
  "CMakeFiles/test_train_cli.dir/train_cli_util.cpp.o"
  "CMakeFiles/test_train_cli.dir/train_cli_util.cpp.o.d"
  "CMakeFiles/test_train_cli.dir/train_loss_scaling_test.cpp.o"
  "CMakeFiles/test_train_cli.dir/train_loss_scaling_test.cpp.o.d"
  "CMakeFiles/test_train_cli.dir/train_parity_test.cpp.o"
  "CMakeFiles/test_train_cli.dir/train_parity_test.cpp.o.d"
  "CMakeFiles/test_train_cli.dir/train_resume_test.cpp.o"
  "CMakeFiles/test_train_cli.dir/train_resume_test.cpp.o.d"
  "test_train_cli"
  "test_train_cli.pdb"
  "test_train_cli[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/test_train_cli.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
