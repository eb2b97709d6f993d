file(REMOVE_RECURSE
  "libnn_op_tester.a"
)
