
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/tests/ops/activation/test_pointwise_activations.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/activation/test_pointwise_activations.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/activation/test_pointwise_activations.cpp.o.d"
  "/work/wt-onnx18/tests/ops/activation/test_softmax_prelu.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/activation/test_softmax_prelu.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/activation/test_softmax_prelu.cpp.o.d"
  "/work/wt-onnx18/tests/ops/arithmetic/test_add_mul_n.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/arithmetic/test_add_mul_n.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/arithmetic/test_add_mul_n.cpp.o.d"
  "/work/wt-onnx18/tests/ops/arithmetic/test_arith2.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/arithmetic/test_arith2.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/arithmetic/test_arith2.cpp.o.d"
  "/work/wt-onnx18/tests/ops/arithmetic/test_minmax_pow.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/arithmetic/test_minmax_pow.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/arithmetic/test_minmax_pow.cpp.o.d"
  "/work/wt-onnx18/tests/ops/array/test_bool_indexing.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_bool_indexing.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_bool_indexing.cpp.o.d"
  "/work/wt-onnx18/tests/ops/array/test_cumulative.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_cumulative.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_cumulative.cpp.o.d"
  "/work/wt-onnx18/tests/ops/array/test_gather_scatter.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_gather_scatter.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_gather_scatter.cpp.o.d"
  "/work/wt-onnx18/tests/ops/array/test_identity_reshape.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_identity_reshape.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_identity_reshape.cpp.o.d"
  "/work/wt-onnx18/tests/ops/array/test_join_split_pad.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_join_split_pad.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_join_split_pad.cpp.o.d"
  "/work/wt-onnx18/tests/ops/array/test_matrix_sequences.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_matrix_sequences.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_matrix_sequences.cpp.o.d"
  "/work/wt-onnx18/tests/ops/array/test_sequence_packing.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_sequence_packing.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_sequence_packing.cpp.o.d"
  "/work/wt-onnx18/tests/ops/array/test_shape_nonzero_assign.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_shape_nonzero_assign.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_shape_nonzero_assign.cpp.o.d"
  "/work/wt-onnx18/tests/ops/array/test_strided_views.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_strided_views.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/array/test_strided_views.cpp.o.d"
  "/work/wt-onnx18/tests/ops/binary_layer/test_binary_layers.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/binary_layer/test_binary_layers.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/binary_layer/test_binary_layers.cpp.o.d"
  "/work/wt-onnx18/tests/ops/geometric/test_geometric.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/geometric/test_geometric.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/geometric/test_geometric.cpp.o.d"
  "/work/wt-onnx18/tests/ops/linalg/test_batch_linalg.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/linalg/test_batch_linalg.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/linalg/test_batch_linalg.cpp.o.d"
  "/work/wt-onnx18/tests/ops/logical/test_logical.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/logical/test_logical.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/logical/test_logical.cpp.o.d"
  "/work/wt-onnx18/tests/ops/logical/test_reset_search_constant.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/logical/test_reset_search_constant.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/logical/test_reset_search_constant.cpp.o.d"
  "/work/wt-onnx18/tests/ops/loss/test_losses.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/loss/test_losses.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/loss/test_losses.cpp.o.d"
  "/work/wt-onnx18/tests/ops/math/test_grad_graphs.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/math/test_grad_graphs.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/math/test_grad_graphs.cpp.o.d"
  "/work/wt-onnx18/tests/ops/math/test_math_unary.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/math/test_math_unary.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/math/test_math_unary.cpp.o.d"
  "/work/wt-onnx18/tests/ops/math/test_trig.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/math/test_trig.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/math/test_trig.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_adaptive_separable_convolution.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_adaptive_separable_convolution.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_adaptive_separable_convolution.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_affine.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_affine.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_affine.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_convolution.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_convolution.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_convolution.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_deconvolution.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_deconvolution.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_deconvolution.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_deformable_convolution.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_deformable_convolution.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_deformable_convolution.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_depthwise_deconvolution.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_depthwise_deconvolution.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_depthwise_deconvolution.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_embed.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_embed.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_embed.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_fused_convolution.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_fused_convolution.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_fused_convolution.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_gru.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_gru.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_gru.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_inq_affine.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_inq_affine.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_inq_affine.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_inq_convolution.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_inq_convolution.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_inq_convolution.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_lstm.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_lstm.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_lstm.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_rnn.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_rnn.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_rnn.cpp.o.d"
  "/work/wt-onnx18/tests/ops/nn_layer/test_roi_align.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_roi_align.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/nn_layer/test_roi_align.cpp.o.d"
  "/work/wt-onnx18/tests/ops/normalization/test_batch_normalization.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_batch_normalization.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_batch_normalization.cpp.o.d"
  "/work/wt-onnx18/tests/ops/normalization/test_grad_clipping.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_grad_clipping.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_grad_clipping.cpp.o.d"
  "/work/wt-onnx18/tests/ops/normalization/test_mean_subtraction.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_mean_subtraction.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_mean_subtraction.cpp.o.d"
  "/work/wt-onnx18/tests/ops/normalization/test_norm_layers.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_norm_layers.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_norm_layers.cpp.o.d"
  "/work/wt-onnx18/tests/ops/normalization/test_norm_more.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_norm_more.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_norm_more.cpp.o.d"
  "/work/wt-onnx18/tests/ops/normalization/test_spectral_norm.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_spectral_norm.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/normalization/test_spectral_norm.cpp.o.d"
  "/work/wt-onnx18/tests/ops/pooling/test_average_sum_pooling.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/pooling/test_average_sum_pooling.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/pooling/test_average_sum_pooling.cpp.o.d"
  "/work/wt-onnx18/tests/ops/pooling/test_global_unpooling.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/pooling/test_global_unpooling.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/pooling/test_global_unpooling.cpp.o.d"
  "/work/wt-onnx18/tests/ops/pooling/test_max_pooling.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/pooling/test_max_pooling.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/pooling/test_max_pooling.cpp.o.d"
  "/work/wt-onnx18/tests/ops/quantization/test_elementwise_quantize.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/quantization/test_elementwise_quantize.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/quantization/test_elementwise_quantize.cpp.o.d"
  "/work/wt-onnx18/tests/ops/quantization/test_linear_quantize.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/quantization/test_linear_quantize.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/quantization/test_linear_quantize.cpp.o.d"
  "/work/wt-onnx18/tests/ops/quantization/test_min_max_quantize.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/quantization/test_min_max_quantize.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/quantization/test_min_max_quantize.cpp.o.d"
  "/work/wt-onnx18/tests/ops/reduction/test_mean_max_prod.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/reduction/test_mean_max_prod.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/reduction/test_mean_max_prod.cpp.o.d"
  "/work/wt-onnx18/tests/ops/reduction/test_reduce_all.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/reduction/test_reduce_all.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/reduction/test_reduce_all.cpp.o.d"
  "/work/wt-onnx18/tests/ops/reduction/test_sum.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/reduction/test_sum.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/reduction/test_sum.cpp.o.d"
  "/work/wt-onnx18/tests/ops/signal/test_fft.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_fft.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_fft.cpp.o.d"
  "/work/wt-onnx18/tests/ops/signal/test_interpolate.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_interpolate.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_interpolate.cpp.o.d"
  "/work/wt-onnx18/tests/ops/signal/test_onnx_resize.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_onnx_resize.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_onnx_resize.cpp.o.d"
  "/work/wt-onnx18/tests/ops/signal/test_onnx_resize_conformance.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_onnx_resize_conformance.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_onnx_resize_conformance.cpp.o.d"
  "/work/wt-onnx18/tests/ops/signal/test_stft.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_stft.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/signal/test_stft.cpp.o.d"
  "/work/wt-onnx18/tests/ops/special/test_einsum.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_einsum.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_einsum.cpp.o.d"
  "/work/wt-onnx18/tests/ops/special/test_max_pooling_backward.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_max_pooling_backward.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_max_pooling_backward.cpp.o.d"
  "/work/wt-onnx18/tests/ops/special/test_nms.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_nms.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_nms.cpp.o.d"
  "/work/wt-onnx18/tests/ops/special/test_patch_correlation.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_patch_correlation.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_patch_correlation.cpp.o.d"
  "/work/wt-onnx18/tests/ops/special/test_special_simple.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_special_simple.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_special_simple.cpp.o.d"
  "/work/wt-onnx18/tests/ops/special/test_unique.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_unique.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_unique.cpp.o.d"
  "/work/wt-onnx18/tests/ops/special/test_vat_noise.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_vat_noise.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/special/test_vat_noise.cpp.o.d"
  "/work/wt-onnx18/tests/ops/stochastic/test_image_augmentation.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_image_augmentation.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_image_augmentation.cpp.o.d"
  "/work/wt-onnx18/tests/ops/stochastic/test_random_choice_crop.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_random_choice_crop.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_random_choice_crop.cpp.o.d"
  "/work/wt-onnx18/tests/ops/stochastic/test_random_erase.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_random_erase.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_random_erase.cpp.o.d"
  "/work/wt-onnx18/tests/ops/stochastic/test_random_generators.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_random_generators.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_random_generators.cpp.o.d"
  "/work/wt-onnx18/tests/ops/stochastic/test_stochastic.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_stochastic.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_stochastic.cpp.o.d"
  "/work/wt-onnx18/tests/ops/stochastic/test_top_k.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_top_k.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/stochastic/test_top_k.cpp.o.d"
  "/work/wt-onnx18/tests/ops/test_coverage.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/test_coverage.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/test_coverage.cpp.o.d"
  "/work/wt-onnx18/tests/ops/validation/test_confusion_matrix.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/validation/test_confusion_matrix.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/validation/test_confusion_matrix.cpp.o.d"
  "/work/wt-onnx18/tests/ops/validation/test_error_rates.cpp" "tests/ops/CMakeFiles/nn_ops_tests.dir/validation/test_error_rates.cpp.o" "gcc" "tests/ops/CMakeFiles/nn_ops_tests.dir/validation/test_error_rates.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/tests/support/CMakeFiles/nn_op_tester.dir/DependInfo.cmake"
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
