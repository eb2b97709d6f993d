# Empty compiler generated dependencies file for nncli.
# This may be replaced when dependencies are built.
