// The CUDA backend loads into a program linking libnncli: it binds to the engine's symbols libnncli exports.
#include <gtest/gtest.h>

#include <string>

#include "nncli/runtime.hpp"

namespace nn {
std::string load_gpu_backend();  // libnn's loader (nn/core/context.hpp), exported by libnncli with the backend
}

namespace {

// Linked: the backend loads (no GPU is needed for that) and names no missing symbol.
TEST(CudaBackendBinding, LoadsIntoAProgramLinkingLibnncli) { EXPECT_EQ(nn::load_gpu_backend(), ""); }

}  // namespace
