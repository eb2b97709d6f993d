file(REMOVE_RECURSE
  "CMakeFiles/bench_ops.dir/bench_ops.cpp.o"
  "CMakeFiles/bench_ops.dir/bench_ops.cpp.o.d"
  "bench_ops"
  "bench_ops.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/bench_ops.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
