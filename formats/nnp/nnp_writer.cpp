// Writing NNP models.
#include "formats/nnp/nnp_writer.hpp"

#include <filesystem>

#include "formats/common/atomic_file.hpp"
#include "formats/common/zip_archive.hpp"
#include "formats/nnp/parameter_h5.hpp"
#include "formats/nnp/proto_convert.hpp"
#include "formats/nnp/proto_text.hpp"
#include "formats/nnp/solver_state_h5.hpp"
#include "nn/core/error.hpp"
#include "nnabla.pb.h"

namespace nn::formats {

namespace {

std::string serialize(const google::protobuf::Message& msg) {
  std::string bytes;
  NN_CHECK(msg.SerializeToString(&bytes)) << "cannot serialize " << msg.GetTypeName() << " (larger than 2 GiB?)";
  return bytes;
}

std::vector<std::string> parameter_names(const ir::Model& model) {
  std::vector<std::string> names;
  for (const auto& p : model.parameters) names.push_back(p.name);
  return names;
}

void add_solver_states(const ir::Model& model, const NnpSaveOptions& options, std::vector<NnpMember>& members) {
  SolverStateFormat format = options.solver_states;
  if (format == SolverStateFormat::kNone) return;
  if (format == SolverStateFormat::kAuto) format = SolverStateFormat::kH5;
  const std::vector<std::string> order =
      options.solver_parameter_order.empty() ? parameter_names(model) : options.solver_parameter_order;
  if (format == SolverStateFormat::kH5) {
    for (const auto& o : model.optimizers) {
      if (o.solver.states.empty()) continue;
      members.push_back({nnp::solver_state_member_name(o), nnp::h5_solver_states_image(o.solver, order)});
    }
    return;
  }
  nnabla::NNablaProtoBuf proto;
  bool any = false;
  for (const auto& o : model.optimizers) {
    if (o.solver.states.empty()) continue;
    auto* out = proto.add_optimizer();
    out->set_name(o.name);
    ir::Solver states_only;
    states_only.type = o.solver.type;
    states_only.states = o.solver.states;
    nnp::solver_to_proto(states_only, true, out->mutable_solver());
    any = true;
  }
  if (any) members.push_back({"optimizer.protobuf.optimizer", serialize(proto)});
}

}  // namespace

std::string model_to_nntxt(const ir::Model& model, bool with_parameters) {
  nnp::ProtoParts parts;
  parts.parameters = with_parameters;
  return nnp::print_text(nnp::model_to_proto(model, parts));
}

std::vector<NnpMember> nnp_members(const ir::Model& model, const NnpSaveOptions& options) {
  std::vector<NnpMember> members;
  members.push_back({"nnp_version.txt", "0.1\n"});
  const bool params_in_text = options.parameter_format == ParameterFormat::kNntxt && options.network_text.empty();
  members.push_back({options.network_member,
                     options.network_text.empty() ? model_to_nntxt(model, params_in_text) : options.network_text});
  if (options.parameter_format == ParameterFormat::kProtobuf) {
    nnabla::NNablaProtoBuf params;
    for (const auto& p : model.parameters) nnp::parameter_to_proto(p, params.add_parameter());
    members.push_back({"parameter.protobuf", serialize(params)});
  } else if (options.parameter_format == ParameterFormat::kH5) {
    members.push_back({"parameter.h5", nnp::h5_parameters_image(model.parameters)});
  }
  add_solver_states(model, options, members);
  return members;
}

void save_nnp(const ir::Model& model, const std::string& path, const NnpSaveOptions& options) {
  with_context("'" + path + "'", [&] {
    std::vector<NnpMember> members = nnp_members(model, options);
    std::error_code ec;
    const bool to_directory =
        std::filesystem::is_directory(path, ec) || (!path.empty() && (path.back() == '/' || path.back() == '\\'));
    if (to_directory) {
      std::filesystem::create_directories(path, ec);
      NN_CHECK(!ec) << "cannot create the directory: " << ec.message();
      for (const auto& m : members) {
        check_member_name(m.name, path);
        write_file_atomic((std::filesystem::path(path) / m.name).string(), m.data);
      }
      return;
    }
    std::vector<ZipMember> entries;
    for (const auto& m : members) entries.push_back({m.name, m.data});
    write_zip(path, entries);
  });
}

void save_nntxt(const ir::Model& model, const std::string& path, bool with_parameters) {
  write_file_atomic(path, model_to_nntxt(model, with_parameters));
}

void save_protobuf(const ir::Model& model, const std::string& path, bool with_parameters) {
  nnp::ProtoParts parts;
  parts.parameters = with_parameters;
  write_file_atomic(path, serialize(nnp::model_to_proto(model, parts)));
}

void save_h5_parameters(const std::vector<ir::Parameter>& parameters, const std::string& path) {
  write_file_atomic(path, nnp::h5_parameters_image(parameters));
}

}  // namespace nn::formats
