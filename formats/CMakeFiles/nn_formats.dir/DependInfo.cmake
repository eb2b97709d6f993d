
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/formats/common/atomic_file.cpp" "formats/CMakeFiles/nn_formats.dir/common/atomic_file.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/common/atomic_file.cpp.o.d"
  "/work/wt-onnx18/formats/common/contained_path.cpp" "formats/CMakeFiles/nn_formats.dir/common/contained_path.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/common/contained_path.cpp.o.d"
  "/work/wt-onnx18/formats/common/file_format.cpp" "formats/CMakeFiles/nn_formats.dir/common/file_format.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/common/file_format.cpp.o.d"
  "/work/wt-onnx18/formats/common/hdf5_file.cpp" "formats/CMakeFiles/nn_formats.dir/common/hdf5_file.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/common/hdf5_file.cpp.o.d"
  "/work/wt-onnx18/formats/common/zip_archive.cpp" "formats/CMakeFiles/nn_formats.dir/common/zip_archive.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/common/zip_archive.cpp.o.d"
  "/work/wt-onnx18/formats/csrc/csrc_inference.cpp" "formats/CMakeFiles/nn_formats.dir/csrc/csrc_inference.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/csrc/csrc_inference.cpp.o.d"
  "/work/wt-onnx18/formats/csrc/csrc_plan.cpp" "formats/CMakeFiles/nn_formats.dir/csrc/csrc_plan.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/csrc/csrc_plan.cpp.o.d"
  "/work/wt-onnx18/formats/csrc/csrc_writer.cpp" "formats/CMakeFiles/nn_formats.dir/csrc/csrc_writer.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/csrc/csrc_writer.cpp.o.d"
  "/work/wt-onnx18/formats/datasets/cache_data_source.cpp" "formats/CMakeFiles/nn_formats.dir/datasets/cache_data_source.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/datasets/cache_data_source.cpp.o.d"
  "/work/wt-onnx18/formats/datasets/csv_data_source.cpp" "formats/CMakeFiles/nn_formats.dir/datasets/csv_data_source.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/datasets/csv_data_source.cpp.o.d"
  "/work/wt-onnx18/formats/datasets/csv_text.cpp" "formats/CMakeFiles/nn_formats.dir/datasets/csv_text.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/datasets/csv_text.cpp.o.d"
  "/work/wt-onnx18/formats/datasets/data_iterator.cpp" "formats/CMakeFiles/nn_formats.dir/datasets/data_iterator.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/datasets/data_iterator.cpp.o.d"
  "/work/wt-onnx18/formats/datasets/forward_result.cpp" "formats/CMakeFiles/nn_formats.dir/datasets/forward_result.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/datasets/forward_result.cpp.o.d"
  "/work/wt-onnx18/formats/datasets/image_io.cpp" "formats/CMakeFiles/nn_formats.dir/datasets/image_io.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/datasets/image_io.cpp.o.d"
  "/work/wt-onnx18/formats/datasets/image_resize.cpp" "formats/CMakeFiles/nn_formats.dir/datasets/image_resize.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/datasets/image_resize.cpp.o.d"
  "/work/wt-onnx18/formats/datasets/npy.cpp" "formats/CMakeFiles/nn_formats.dir/datasets/npy.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/datasets/npy.cpp.o.d"
  "/work/wt-onnx18/formats/nnb/nnb_args.cpp" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_args.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_args.cpp.o.d"
  "/work/wt-onnx18/formats/nnb/nnb_dump.cpp" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_dump.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_dump.cpp.o.d"
  "/work/wt-onnx18/formats/nnb/nnb_file.cpp" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_file.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_file.cpp.o.d"
  "/work/wt-onnx18/formats/nnb/nnb_function_table.cpp" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_function_table.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_function_table.cpp.o.d"
  "/work/wt-onnx18/formats/nnb/nnb_settings.cpp" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_settings.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_settings.cpp.o.d"
  "/work/wt-onnx18/formats/nnb/nnb_to_ir.cpp" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_to_ir.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_to_ir.cpp.o.d"
  "/work/wt-onnx18/formats/nnb/nnb_writer.cpp" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_writer.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnb/nnb_writer.cpp.o.d"
  "/work/wt-onnx18/formats/nnp/convert_model.cpp" "formats/CMakeFiles/nn_formats.dir/nnp/convert_model.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnp/convert_model.cpp.o.d"
  "/work/wt-onnx18/formats/nnp/convert_network.cpp" "formats/CMakeFiles/nn_formats.dir/nnp/convert_network.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnp/convert_network.cpp.o.d"
  "/work/wt-onnx18/formats/nnp/convert_solver.cpp" "formats/CMakeFiles/nn_formats.dir/nnp/convert_solver.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnp/convert_solver.cpp.o.d"
  "/work/wt-onnx18/formats/nnp/nnp_reader.cpp" "formats/CMakeFiles/nn_formats.dir/nnp/nnp_reader.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnp/nnp_reader.cpp.o.d"
  "/work/wt-onnx18/formats/nnp/nnp_writer.cpp" "formats/CMakeFiles/nn_formats.dir/nnp/nnp_writer.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnp/nnp_writer.cpp.o.d"
  "/work/wt-onnx18/formats/nnp/parameter_h5.cpp" "formats/CMakeFiles/nn_formats.dir/nnp/parameter_h5.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnp/parameter_h5.cpp.o.d"
  "/work/wt-onnx18/formats/nnp/proto_text.cpp" "formats/CMakeFiles/nn_formats.dir/nnp/proto_text.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnp/proto_text.cpp.o.d"
  "/work/wt-onnx18/formats/nnp/reflect_attrs.cpp" "formats/CMakeFiles/nn_formats.dir/nnp/reflect_attrs.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnp/reflect_attrs.cpp.o.d"
  "/work/wt-onnx18/formats/nnp/solver_state_h5.cpp" "formats/CMakeFiles/nn_formats.dir/nnp/solver_state_h5.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/nnp/solver_state_h5.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/common/onnx_model_file.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/common/onnx_model_file.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/common/onnx_model_file.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/common/onnx_support.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/common/onnx_support.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/common/onnx_support.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_emitter.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_emitter.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_emitter.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_array.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_array.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_array.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_composites.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_composites.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_composites.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_elementwise.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_elementwise.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_elementwise.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_gather.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_gather.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_gather.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_indexing.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_indexing.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_indexing.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_layers.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_layers.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_layers.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_normalization.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_normalization.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_normalization.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_quantization.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_quantization.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_quantization.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_recurrent.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_recurrent.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_recurrent.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_resize.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_resize.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_resize.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/export/onnx_export_selection.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_selection.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/export/onnx_export_selection.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_binary.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_binary.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_binary.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_context.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_context.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_context.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_elementwise.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_elementwise.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_elementwise.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_indexing.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_indexing.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_indexing.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_layer_norm.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_layer_norm.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_layer_norm.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_loss.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_loss.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_loss.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_math.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_math.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_math.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_misc.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_misc.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_misc.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_nn.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_nn.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_nn.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_pooling.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_pooling.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_pooling.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_recurrent.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_recurrent.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_recurrent.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_resize.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_resize.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_resize.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_selection.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_selection.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_selection.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_shape.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_shape.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_shape.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/import_tensor.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_tensor.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/import_tensor.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/onnx_importer.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/onnx_importer.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/onnx_importer.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/op_rules.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/op_rules.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/op_rules.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/spatial_pads.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/spatial_pads.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/spatial_pads.cpp.o.d"
  "/work/wt-onnx18/formats/onnx/import/symbolic_batch.cpp" "formats/CMakeFiles/nn_formats.dir/onnx/import/symbolic_batch.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/onnx/import/symbolic_batch.cpp.o.d"
  "/work/wt-onnx18/formats/passes/batch_size.cpp" "formats/CMakeFiles/nn_formats.dir/passes/batch_size.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/passes/batch_size.cpp.o.d"
  "/work/wt-onnx18/formats/passes/expand_repeat.cpp" "formats/CMakeFiles/nn_formats.dir/passes/expand_repeat.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/passes/expand_repeat.cpp.o.d"
  "/work/wt-onnx18/formats/passes/fill_shapes.cpp" "formats/CMakeFiles/nn_formats.dir/passes/fill_shapes.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/passes/fill_shapes.cpp.o.d"
  "/work/wt-onnx18/formats/passes/split_network.cpp" "formats/CMakeFiles/nn_formats.dir/passes/split_network.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/passes/split_network.cpp.o.d"
  "/work/wt-onnx18/formats/passes/topological_sort.cpp" "formats/CMakeFiles/nn_formats.dir/passes/topological_sort.cpp.o" "gcc" "formats/CMakeFiles/nn_formats.dir/passes/topological_sort.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  "/work/wt-onnx18/proto/CMakeFiles/nn_proto.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
