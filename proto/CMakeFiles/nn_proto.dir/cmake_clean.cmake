file(REMOVE_RECURSE
  "CMakeFiles/nn_proto.dir/nnabla.pb.cc.o"
  "CMakeFiles/nn_proto.dir/nnabla.pb.cc.o.d"
  "libnn_proto.a"
  "libnn_proto.pdb"
  "nnabla.pb.cc"
  "nnabla.pb.h"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_proto.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
