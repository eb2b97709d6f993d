# Empty compiler generated dependencies file for nn_proto.
# This may be replaced when dependencies are built.
