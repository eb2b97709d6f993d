file(REMOVE_RECURSE
  "CMakeFiles/nncli_compare_floats.dir/compare_floats.cpp.o"
  "CMakeFiles/nncli_compare_floats.dir/compare_floats.cpp.o.d"
  "nncli_compare_floats"
  "nncli_compare_floats.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nncli_compare_floats.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
