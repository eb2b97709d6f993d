# Empty dependencies file for nn_proto.
# This may be replaced when dependencies are built.
