file(REMOVE_RECURSE
  "libnn_formats.a"
)
