file(REMOVE_RECURSE
  "libnn_onnx_test_util.a"
)
