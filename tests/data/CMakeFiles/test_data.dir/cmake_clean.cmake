file(REMOVE_RECURSE
  "CMakeFiles/test_data.dir/cache_data_source_test.cpp.o"
  "CMakeFiles/test_data.dir/cache_data_source_test.cpp.o.d"
  "CMakeFiles/test_data.dir/csv_data_source_test.cpp.o"
  "CMakeFiles/test_data.dir/csv_data_source_test.cpp.o.d"
  "CMakeFiles/test_data.dir/csv_text_test.cpp.o"
  "CMakeFiles/test_data.dir/csv_text_test.cpp.o.d"
  "CMakeFiles/test_data.dir/data_iterator_test.cpp.o"
  "CMakeFiles/test_data.dir/data_iterator_test.cpp.o.d"
  "CMakeFiles/test_data.dir/forward_cli_test.cpp.o"
  "CMakeFiles/test_data.dir/forward_cli_test.cpp.o.d"
  "CMakeFiles/test_data.dir/forward_result_test.cpp.o"
  "CMakeFiles/test_data.dir/forward_result_test.cpp.o.d"
  "CMakeFiles/test_data.dir/image_dataset_test.cpp.o"
  "CMakeFiles/test_data.dir/image_dataset_test.cpp.o.d"
  "CMakeFiles/test_data.dir/test_data_util.cpp.o"
  "CMakeFiles/test_data.dir/test_data_util.cpp.o.d"
  "test_data"
  "test_data.pdb"
  "test_data[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/test_data.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
