file(REMOVE_RECURSE
  "CMakeFiles/bench_gpu.dir/bench_gpu.cpp.o"
  "CMakeFiles/bench_gpu.dir/bench_gpu.cpp.o.d"
  "CMakeFiles/bench_gpu.dir/bench_models.cpp.o"
  "CMakeFiles/bench_gpu.dir/bench_models.cpp.o.d"
  "bench_gpu"
  "bench_gpu.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/bench_gpu.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
