// Batch-size pass: -1 dims replaced by the network's batch size or an override.
#include "formats/passes/batch_size.hpp"

#include <gtest/gtest.h>

#include "formats/nnp/nnp_reader.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

const char* kNet = R"(network { name: "n" batch_size: 64
    variable { name: "x" shape { dim: -1 dim: 3 } }
    variable { name: "w" type: "Parameter" shape { dim: 3 dim: 2 } } })";

TEST(BatchSize, UsesNetworkBatchSizeOrOverride) {
  ir::Model m = parse_nntxt(kNet, "b.nntxt");
  ir::Network n = set_batch_size(m.networks[0]);
  EXPECT_EQ(n.batch_size, 64);
  EXPECT_EQ(n.variables[0].shape, (Shape{64, 3}));
  EXPECT_EQ(n.variables[1].shape, (Shape{3, 2}));
  set_batch_size(m, 2);
  EXPECT_EQ(m.networks[0].variables[0].shape, (Shape{2, 3}));
  EXPECT_EQ(m.networks[0].batch_size, 2);
}

TEST(BatchSize, NoBatchSizeIsAnError) {
  ir::Model m = parse_nntxt(R"(network { name: "z" variable { name: "x" shape { dim: -1 } } })", "z.nntxt");
  std::string msg = test::error_of([&] { set_batch_size(m.networks[0]); });
  EXPECT_NE(msg.find("network 'z': no batch size (batch_size is 0 and none was given)"), std::string::npos) << msg;
  EXPECT_EQ(set_batch_size(m.networks[0], 5).variables[0].shape, (Shape{5}));
}

}  // namespace
}  // namespace nn::formats
