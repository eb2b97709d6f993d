# Empty dependencies file for nn.
# This may be replaced when dependencies are built.
