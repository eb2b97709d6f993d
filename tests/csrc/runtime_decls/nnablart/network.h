/* Test stand-in for nnabla-c-runtime's <nnablart/network.h>: only the names generated CSRC code uses
   (docs/nnb_format.md#variables, #csrc-export), written for nncli's tests. */
#ifndef NNCLI_TEST_NNABLART_NETWORK_H
#define NNCLI_TEST_NNABLART_NETWORK_H

typedef enum { NN_DATA_TYPE_FLOAT, NN_DATA_TYPE_INT16, NN_DATA_TYPE_INT8, NN_DATA_TYPE_SIGN } nn_data_type_t;

typedef enum { NN_ERROR_CODE_NOERROR = 0 } nn_error_code_t;

#endif
