// What the CSRC generators share: the NNB writer's float32 plan of the network plus names and text helpers.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "formats/nnb/nnb_file.hpp"
#include "nn/ir/model.hpp"

namespace nn::formats::csrc {

struct CsrcPlan {
  const nn::ir::Network* network = nullptr;
  const nn::ir::Executor* executor = nullptr;
  nn::formats::nnb::NnbNetwork nnb;  // shapes (batch substituted), shared buffers, data, encoded arguments
  int64_t batch_size = 1;
  std::string name;                  // network name (file names)
  std::string symbol;                // the name as a C identifier (the same when it is one)
  std::string prefix;                // "nnablart_" + lower(symbol)
  std::vector<size_t> parameters;    // variable indices of the Parameter variables, in variable order
  std::set<std::string> generators;  // generator variable names of the executor
};

CsrcPlan make_plan(const nn::ir::Model& model, int64_t batch_size);

// Python's str() of a double (shortest round trip, "1e-05", "3.0").
std::string python_float(double value);
std::string upper(std::string text);
std::string lower(std::string text);
// A C identifier made from `name` (non-identifier characters become '_').
std::string c_identifier(const std::string& name);
// Element count of a variable's NNB shape.
int64_t element_count_of(const CsrcPlan& plan, size_t variable);
// The license and "auto-generated" banner every generated C file starts with.
const char* generated_banner();

// Per-file generators.
std::string parameters_header(const CsrcPlan& plan);
std::string parameters_source(const CsrcPlan& plan);
std::string inference_header(const CsrcPlan& plan);
std::string inference_source(const CsrcPlan& plan);
std::string example_source(const CsrcPlan& plan);
std::string gnumakefile(const CsrcPlan& plan);

}  // namespace nn::formats::csrc
