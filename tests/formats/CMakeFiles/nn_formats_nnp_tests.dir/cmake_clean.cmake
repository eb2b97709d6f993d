file(REMOVE_RECURSE
  "CMakeFiles/nn_formats_nnp_tests.dir/batch_size_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/batch_size_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/expand_golden_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/expand_golden_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/expand_repeat_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/expand_repeat_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/file_format_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/file_format_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/formats_test_util.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/formats_test_util.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/host_files_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/host_files_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/nnp_malformed_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/nnp_malformed_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/nnp_roundtrip_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/nnp_roundtrip_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/nnp_testdata_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/nnp_testdata_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/nntxt_reader_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/nntxt_reader_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/parameter_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/parameter_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/reflect_attrs_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/reflect_attrs_test.cpp.o.d"
  "CMakeFiles/nn_formats_nnp_tests.dir/zip_archive_test.cpp.o"
  "CMakeFiles/nn_formats_nnp_tests.dir/zip_archive_test.cpp.o.d"
  "nn_formats_nnp_tests"
  "nn_formats_nnp_tests.pdb"
  "nn_formats_nnp_tests[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_formats_nnp_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
