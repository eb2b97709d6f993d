file(REMOVE_RECURSE
  "CMakeFiles/test_train_engine.dir/loss_scaler_test.cpp.o"
  "CMakeFiles/test_train_engine.dir/loss_scaler_test.cpp.o.d"
  "CMakeFiles/test_train_engine.dir/lr_scheduler_test.cpp.o"
  "CMakeFiles/test_train_engine.dir/lr_scheduler_test.cpp.o.d"
  "CMakeFiles/test_train_engine.dir/trainer_test.cpp.o"
  "CMakeFiles/test_train_engine.dir/trainer_test.cpp.o.d"
  "test_train_engine"
  "test_train_engine.pdb"
  "test_train_engine[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/test_train_engine.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
