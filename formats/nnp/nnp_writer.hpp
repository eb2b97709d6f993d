// Writing NNP models: .nnp archives (or directories), .nntxt, .protobuf and parameter .h5 files.
#pragma once
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats {

enum class ParameterFormat {
  kProtobuf,  // parameter.protobuf (convert's default)
  kH5,        // parameter.h5 (nnabla.utils.save's and train's default)
  kNntxt,     // parameters kept inside network.nntxt
  kExclude,   // no parameters at all
};

enum class SolverStateFormat {
  kAuto,  // HDF5 state files for every optimizer that has states
  kNone,
  kH5,        // '<opt>_<Solver>_optimizer.h5.optimizer' per optimizer with states
  kProtobuf,  // one 'optimizer.protobuf.optimizer'
};

struct NnpSaveOptions {
  ParameterFormat parameter_format = ParameterFormat::kProtobuf;
  SolverStateFormat solver_states = SolverStateFormat::kAuto;
  std::string network_member = "network.nntxt";  // name of the text member
  // Non-empty: written verbatim as the text member instead of printing the model (train copies its
  // config this way); parameters then never go into the text.
  std::string network_text;
  // Order of the 'index' attributes in solver-state files (default: parameter order of the model).
  std::vector<std::string> solver_parameter_order;
};

struct NnpMember {
  std::string name;
  std::string data;
};

// The members save_nnp writes, in order: nnp_version.txt, the text member, parameters, solver states.
std::vector<NnpMember> nnp_members(const ir::Model& model, const NnpSaveOptions& options = {});

// A path naming an existing directory (or ending with '/') receives the members as files; anything else
// becomes a zip archive with STORED entries. Every file is written atomically (temp + rename).
void save_nnp(const ir::Model& model, const std::string& path, const NnpSaveOptions& options = {});

// Upstream-style text (fields in number order, 2-space indent).
std::string model_to_nntxt(const ir::Model& model, bool with_parameters = false);
void save_nntxt(const ir::Model& model, const std::string& path, bool with_parameters = false);
// The whole model as a binary NNablaProtoBuf.
void save_protobuf(const ir::Model& model, const std::string& path, bool with_parameters = true);
// parameter.h5 layout (need_grad + index attributes).
void save_h5_parameters(const std::vector<ir::Parameter>& parameters, const std::string& path);

}  // namespace nn::formats
