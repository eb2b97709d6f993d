# Empty compiler generated dependencies file for bench_gpu.
# This may be replaced when dependencies are built.
