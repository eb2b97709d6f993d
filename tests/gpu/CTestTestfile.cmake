# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests/gpu
# Build directory: /work/wt-onnx18/tests/gpu
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/wt-onnx18/tests/gpu/nn_gpu_tests[1]_include.cmake")
add_test([=[cli.context.infer.unavailable]=] "bash" "/work/wt-onnx18/scripts/cli_case.sh" "--exit" "3" "--err" "context 'cudnn:float' unavailable: " "--err-lines" "1" "--" "/work/wt-onnx18/apps/nncli/nncli" "-q" "infer" "-C" "cudnn:99" "-b" "2" "-o" "out" "/work/wt-onnx18/sample_models/mlp/mlp.nnp" "/work/wt-onnx18/sample_models/mlp/input_b2.bin")
set_tests_properties([=[cli.context.infer.unavailable]=] PROPERTIES  LABELS "cli" SKIP_RETURN_CODE "77" _BACKTRACE_TRIPLES "/work/wt-onnx18/tests/gpu/CMakeLists.txt;6;add_test;/work/wt-onnx18/tests/gpu/CMakeLists.txt;19;nncli_context_case;/work/wt-onnx18/tests/gpu/CMakeLists.txt;0;")
add_test([=[cli.context.forward.unavailable]=] "bash" "/work/wt-onnx18/scripts/cli_case.sh" "--exit" "3" "--err" "context 'cudnn:float' unavailable: " "--" "/work/wt-onnx18/apps/nncli/nncli" "forward" "-C" "cudnn:99" "-c" "/work/wt-onnx18/sample_models/mlp/mlp.nnp" "-d" "/work/wt-onnx18/sample_models/mlp/data.csv" "-o" "out")
set_tests_properties([=[cli.context.forward.unavailable]=] PROPERTIES  LABELS "cli" SKIP_RETURN_CODE "77" _BACKTRACE_TRIPLES "/work/wt-onnx18/tests/gpu/CMakeLists.txt;6;add_test;/work/wt-onnx18/tests/gpu/CMakeLists.txt;22;nncli_context_case;/work/wt-onnx18/tests/gpu/CMakeLists.txt;0;")
add_test([=[cli.context.infer.bad_context]=] "bash" "/work/wt-onnx18/scripts/cli_case.sh" "--exit" "2" "--err" "unknown context 'tpu'" "--" "/work/wt-onnx18/apps/nncli/nncli" "infer" "-C" "tpu" "/work/wt-onnx18/sample_models/mlp/mlp.nnp" "/work/wt-onnx18/sample_models/mlp/input_b2.bin")
set_tests_properties([=[cli.context.infer.bad_context]=] PROPERTIES  LABELS "cli" SKIP_RETURN_CODE "77" _BACKTRACE_TRIPLES "/work/wt-onnx18/tests/gpu/CMakeLists.txt;6;add_test;/work/wt-onnx18/tests/gpu/CMakeLists.txt;25;nncli_context_case;/work/wt-onnx18/tests/gpu/CMakeLists.txt;0;")
add_test([=[cli.context.infer.cpu_context]=] "bash" "/work/wt-onnx18/scripts/cli_case.sh" "--file" "out_0.bin" "--" "/work/wt-onnx18/apps/nncli/nncli" "-q" "infer" "-C" "cpu" "-b" "2" "-o" "out" "/work/wt-onnx18/sample_models/mlp/mlp.nnp" "/work/wt-onnx18/sample_models/mlp/input_b2.bin")
set_tests_properties([=[cli.context.infer.cpu_context]=] PROPERTIES  LABELS "cli" SKIP_RETURN_CODE "77" _BACKTRACE_TRIPLES "/work/wt-onnx18/tests/gpu/CMakeLists.txt;6;add_test;/work/wt-onnx18/tests/gpu/CMakeLists.txt;27;nncli_context_case;/work/wt-onnx18/tests/gpu/CMakeLists.txt;0;")
