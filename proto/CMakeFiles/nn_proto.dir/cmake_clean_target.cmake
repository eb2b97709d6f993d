file(REMOVE_RECURSE
  "libnn_proto.a"
)
