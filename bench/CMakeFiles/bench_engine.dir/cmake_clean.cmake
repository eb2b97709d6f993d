file(REMOVE_RECURSE
  "CMakeFiles/bench_engine.dir/bench_engine.cpp.o"
  "CMakeFiles/bench_engine.dir/bench_engine.cpp.o.d"
  "CMakeFiles/bench_engine.dir/bench_models.cpp.o"
  "CMakeFiles/bench_engine.dir/bench_models.cpp.o.d"
  "bench_engine"
  "bench_engine.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/bench_engine.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
