// convert's NNP exporter: network.nntxt plus parameters as protobuf (default), h5, inside the nntxt or none.
#include "convert/convert_targets.hpp"
#include "formats/nnp/nnp_writer.hpp"

namespace nncli {

void export_nnp(const nn::ir::Model& model, const std::string& output, const ConvertOptions& options) {
  nn::formats::NnpSaveOptions save;
  save.parameter_format = options.nnp_exclude_parameter ? nn::formats::ParameterFormat::kExclude
                          : options.nnp_parameter_nntxt ? nn::formats::ParameterFormat::kNntxt
                          : options.nnp_parameter_h5    ? nn::formats::ParameterFormat::kH5
                                                        : nn::formats::ParameterFormat::kProtobuf;
  if (output.size() > 6 && output.substr(output.size() - 6) == ".nntxt") {
    nn::formats::save_nntxt(model, output, !options.nnp_exclude_parameter);
    return;
  }
  nn::formats::save_nnp(model, output, save);
}

}  // namespace nncli
