// Fuzzes the HDF5 parameter and solver-state readers: bytes -> parameters (the parameter.h5 of an .nnp).
#include <string>

#include "formats/nnp/parameter_h5.hpp"
#include "formats/nnp/solver_state_h5.hpp"
#include "nn/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    (void)nn::formats::nnp::read_h5_parameters(bytes, "fuzz.h5");
  } catch (const nn::Error&) {
  }
  try {
    (void)nn::formats::nnp::read_h5_solver_states(bytes, "fuzz.h5.optimizer");
  } catch (const nn::Error&) {
  }
  return 0;
}
