# Empty compiler generated dependencies file for nn_formats.
# This may be replaced when dependencies are built.
