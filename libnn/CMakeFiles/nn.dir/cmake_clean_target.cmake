file(REMOVE_RECURSE
  "libnn.a"
)
