// Batch-size pass.
#include "formats/passes/batch_size.hpp"

#include "nn/core/error.hpp"

namespace nn::formats {

int64_t effective_batch_size(const ir::Network& network, int64_t override_batch_size) {
  int64_t batch = override_batch_size > 0 ? override_batch_size : network.batch_size;
  NN_CHECK(batch > 0) << "network '" << network.name << "': no batch size (batch_size is " << network.batch_size
                      << " and none was given)";
  return batch;
}

ir::Network set_batch_size(const ir::Network& network, int64_t override_batch_size) {
  const int64_t batch = effective_batch_size(network, override_batch_size);
  ir::Network out = network;
  out.batch_size = batch;
  for (auto& v : out.variables) {
    for (auto& d : v.shape)
      if (d == -1) d = batch;
    check_shape(v.shape, "network '" + network.name + "': variable '" + v.name + "'");
  }
  return out;
}

void set_batch_size(ir::Model& model, int64_t override_batch_size) {
  for (auto& n : model.networks) n = set_batch_size(n, override_batch_size);
}

}  // namespace nn::formats
