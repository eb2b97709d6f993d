/* Test stand-in for nnabla-c-runtime's <nnablart/functions.h>: the runtime types and, for the functions
   nncli's CSRC tests export, the local contexts (one field per argument, see
   docs/nnb_format.md#functions-the-runtime-implements: int64 -> int32_t, float -> float, bool -> uint8_t,
   Shape -> rt_list_t) and allocate/free/exec entry points. */
#ifndef NNCLI_TEST_NNABLART_FUNCTIONS_H
#define NNCLI_TEST_NNABLART_FUNCTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <nnablart/network.h>

typedef enum { RT_FUNCTION_ERROR_NOERROR = 0 } rt_function_error_t;

typedef struct {
  int size;
  int* data;
} rt_list_t;

typedef enum {
  RT_BUFFER_ALLOCATE_TYPE_MALLOC = 0,
  RT_BUFFER_ALLOCATE_TYPE_ALLOCATED,
  RT_BUFFER_ALLOCATE_TYPE_INITIAL
} rt_buffer_allocate_type_t;

typedef struct {
  rt_list_t shape;
  nn_data_type_t type : 4;
  unsigned int fp_pos : 4;
  float coefficient;
  void* data;
} rt_variable_t;

typedef struct rt_function rt_function_t;
struct rt_function {
  int num_of_inputs;
  rt_variable_t** inputs;
  int num_of_outputs;
  rt_variable_t** outputs;
  rt_function_error_t (*exec_func)(rt_function_t* f);
  rt_function_error_t (*free_local_context_func)(rt_function_t* f);
  void* local_context;
};

extern void* (*rt_variable_malloc_func)(size_t size);
extern void (*rt_variable_free_func)(void* ptr);
extern void* (*rt_malloc_func)(size_t size);
extern void (*rt_free_func)(void* ptr);

#define NNCLI_TEST_ENTRY_POINTS(snake)                                    \
  rt_function_error_t allocate_##snake##_local_context(rt_function_t* f); \
  rt_function_error_t free_##snake##_local_context(rt_function_t* f);     \
  rt_function_error_t exec_##snake(rt_function_t* f);

#define NNCLI_TEST_CONTEXT(snake, fields) \
  typedef struct {                        \
    fields void* data;                    \
  } snake##_local_context_t;              \
  NNCLI_TEST_ENTRY_POINTS(snake)

NNCLI_TEST_CONTEXT(affine, int32_t base_axis;)
NNCLI_TEST_CONTEXT(binary_connect_affine, int32_t base_axis; float quantize_zero_to;)
NNCLI_TEST_CONTEXT(binary_weight_affine, int32_t base_axis; float quantize_zero_to;)
NNCLI_TEST_CONTEXT(convolution, int32_t base_axis; rt_list_t pad; rt_list_t stride; rt_list_t dilation;
                   int32_t group; uint8_t channel_last;)
NNCLI_TEST_CONTEXT(binary_connect_convolution, int32_t base_axis; rt_list_t pad; rt_list_t stride;
                   rt_list_t dilation; int32_t group; float quantize_zero_to;)
NNCLI_TEST_CONTEXT(binary_weight_convolution, int32_t base_axis; rt_list_t pad; rt_list_t stride;
                   rt_list_t dilation; int32_t group; float quantize_zero_to;)
NNCLI_TEST_CONTEXT(deconvolution, int32_t base_axis; rt_list_t pad; rt_list_t stride; rt_list_t dilation;
                   int32_t group; uint8_t channel_last; rt_list_t output_padding;)
NNCLI_TEST_CONTEXT(max_pooling, rt_list_t kernel; rt_list_t stride; uint8_t ignore_border; rt_list_t pad;
                   uint8_t channel_last;)
NNCLI_TEST_CONTEXT(sum_pooling, rt_list_t kernel; rt_list_t stride; uint8_t ignore_border; rt_list_t pad;
                   uint8_t channel_last;)
NNCLI_TEST_CONTEXT(average_pooling, rt_list_t kernel; rt_list_t stride; uint8_t ignore_border; rt_list_t pad;
                   uint8_t channel_last; uint8_t including_pad;)
NNCLI_TEST_CONTEXT(relu, uint8_t inplace;)
NNCLI_TEST_CONTEXT(leaky_relu, float alpha; uint8_t inplace;)
NNCLI_TEST_CONTEXT(softmax, int32_t axis;)
NNCLI_TEST_CONTEXT(elu, float alpha;)
NNCLI_TEST_CONTEXT(prelu, int32_t base_axis;)
NNCLI_TEST_CONTEXT(batch_normalization, rt_list_t axes; float decay_rate; float eps; uint8_t batch_stat;
                   uint8_t no_scale; uint8_t no_bias;)
NNCLI_TEST_CONTEXT(add2, uint8_t inplace;)
NNCLI_TEST_CONTEXT(sub2, uint8_t inplace;)
NNCLI_TEST_CONTEXT(mul2, uint8_t inplace;)
NNCLI_TEST_CONTEXT(div2, uint8_t inplace;)
NNCLI_TEST_CONTEXT(add_scalar, float val; uint8_t inplace;)
NNCLI_TEST_CONTEXT(mul_scalar, float val; uint8_t inplace;)
NNCLI_TEST_CONTEXT(r_sub_scalar, float val;)
NNCLI_TEST_CONTEXT(concatenate, int32_t axis;)
NNCLI_TEST_CONTEXT(split, int32_t axis;)
NNCLI_TEST_CONTEXT(stack, int32_t axis;)
NNCLI_TEST_CONTEXT(slice, rt_list_t start; rt_list_t stop; rt_list_t step;)
NNCLI_TEST_CONTEXT(transpose, rt_list_t axes;)
NNCLI_TEST_CONTEXT(reshape, rt_list_t shape; uint8_t inplace;)
NNCLI_TEST_CONTEXT(dropout, float p; int32_t seed;)
NNCLI_TEST_ENTRY_POINTS(sigmoid)
NNCLI_TEST_ENTRY_POINTS(tanh)
NNCLI_TEST_ENTRY_POINTS(identity)
NNCLI_TEST_ENTRY_POINTS(binary_sigmoid)
NNCLI_TEST_ENTRY_POINTS(binary_tanh)
NNCLI_TEST_ENTRY_POINTS(abs)
NNCLI_TEST_ENTRY_POINTS(exp)
NNCLI_TEST_ENTRY_POINTS(log)

#endif
