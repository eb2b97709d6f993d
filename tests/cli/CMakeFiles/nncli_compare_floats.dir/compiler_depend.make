# Empty compiler generated dependencies file for nncli_compare_floats.
# This may be replaced when dependencies are built.
