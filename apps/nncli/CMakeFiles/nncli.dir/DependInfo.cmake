
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/apps/nncli/array_io.cpp" "apps/nncli/CMakeFiles/nncli.dir/array_io.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/array_io.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_compare_with_cpu.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_compare_with_cpu.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_compare_with_cpu.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_conv_dataset.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_conv_dataset.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_conv_dataset.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_convert.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_convert.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_convert.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_create_image_classification_dataset.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_create_image_classification_dataset.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_create_image_classification_dataset.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_create_tar.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_create_tar.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_create_tar.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_decode_param.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_decode_param.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_decode_param.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_draw_graph.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_draw_graph.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_draw_graph.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_dump.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_dump.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_dump.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_encode_param.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_encode_param.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_encode_param.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_forward.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_forward.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_forward.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_function_info.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_function_info.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_function_info.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_infer.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_infer.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_infer.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_nnb_template.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_nnb_template.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_nnb_template.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_plot_series.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_plot_series.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_plot_series.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_plot_timer.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_plot_timer.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_plot_timer.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_profile.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_profile.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_profile.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_train.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_train.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_train.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_upload.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_upload.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_upload.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/cmd_version.cpp" "apps/nncli/CMakeFiles/nncli.dir/cmd_version.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/cmd_version.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/compare_runner.cpp" "apps/nncli/CMakeFiles/nncli.dir/compare_runner.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/compare_runner.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/convert_csrc.cpp" "apps/nncli/CMakeFiles/nncli.dir/convert_csrc.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/convert_csrc.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/convert_nnb.cpp" "apps/nncli/CMakeFiles/nncli.dir/convert_nnb.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/convert_nnb.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/convert_nnp.cpp" "apps/nncli/CMakeFiles/nncli.dir/convert_nnp.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/convert_nnp.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/convert_onnx.cpp" "apps/nncli/CMakeFiles/nncli.dir/convert_onnx.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/convert_onnx.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/convert_split.cpp" "apps/nncli/CMakeFiles/nncli.dir/convert_split.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/convert_split.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/convert_verify.cpp" "apps/nncli/CMakeFiles/nncli.dir/convert_verify.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/convert_verify.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/dump_proto.cpp" "apps/nncli/CMakeFiles/nncli.dir/dump_proto.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/dump_proto.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/dump_stats.cpp" "apps/nncli/CMakeFiles/nncli.dir/dump_stats.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/dump_stats.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/executor_runner.cpp" "apps/nncli/CMakeFiles/nncli.dir/executor_runner.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/executor_runner.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/function_info_output.cpp" "apps/nncli/CMakeFiles/nncli.dir/function_info_output.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/function_info_output.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/function_info_sets.cpp" "apps/nncli/CMakeFiles/nncli.dir/function_info_sets.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/function_info_sets.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/graph_draw_dot.cpp" "apps/nncli/CMakeFiles/nncli.dir/graph_draw_dot.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/graph_draw_dot.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/graph_draw_render.cpp" "apps/nncli/CMakeFiles/nncli.dir/graph_draw_render.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/graph_draw_render.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/main.cpp" "apps/nncli/CMakeFiles/nncli.dir/main.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/main.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/model_session.cpp" "apps/nncli/CMakeFiles/nncli.dir/model_session.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/model_session.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/mpi_communicator.cpp" "apps/nncli/CMakeFiles/nncli.dir/mpi_communicator.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/mpi_communicator.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/nccl_reducer.cpp" "apps/nncli/CMakeFiles/nncli.dir/nccl_reducer.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/nccl_reducer.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/nnb_runner.cpp" "apps/nncli/CMakeFiles/nncli.dir/nnb_runner.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/nnb_runner.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/param_text_io.cpp" "apps/nncli/CMakeFiles/nncli.dir/param_text_io.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/param_text_io.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/plot_data.cpp" "apps/nncli/CMakeFiles/nncli.dir/plot_data.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/plot_data.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/plot_figure.cpp" "apps/nncli/CMakeFiles/nncli.dir/plot_figure.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/plot_figure.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/profile_report.cpp" "apps/nncli/CMakeFiles/nncli.dir/profile_report.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/profile_report.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/profile_runner.cpp" "apps/nncli/CMakeFiles/nncli.dir/profile_runner.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/profile_runner.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/profile_stats.cpp" "apps/nncli/CMakeFiles/nncli.dir/profile_stats.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/profile_stats.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/progress.cpp" "apps/nncli/CMakeFiles/nncli.dir/progress.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/progress.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/py_format.cpp" "apps/nncli/CMakeFiles/nncli.dir/py_format.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/py_format.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/thread_policy.cpp" "apps/nncli/CMakeFiles/nncli.dir/thread_policy.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/thread_policy.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/train_data.cpp" "apps/nncli/CMakeFiles/nncli.dir/train_data.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/train_data.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/train_io.cpp" "apps/nncli/CMakeFiles/nncli.dir/train_io.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/train_io.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/train_resume.cpp" "apps/nncli/CMakeFiles/nncli.dir/train_resume.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/train_resume.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/upload_client.cpp" "apps/nncli/CMakeFiles/nncli.dir/upload_client.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/upload_client.cpp.o.d"
  "/work/wt-onnx18/apps/nncli/upload_dataset.cpp" "apps/nncli/CMakeFiles/nncli.dir/upload_dataset.cpp.o" "gcc" "apps/nncli/CMakeFiles/nncli.dir/upload_dataset.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/formats/CMakeFiles/nn_formats.dir/DependInfo.cmake"
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  "/work/wt-onnx18/proto/CMakeFiles/nn_proto.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
