// Loading NNP models: file dispatch, archive members, merging, parameters and solver states.
#include "formats/nnp/nnp_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <unordered_map>

#include "formats/common/atomic_file.hpp"
#include "formats/common/file_format.hpp"
#include "formats/common/out_of_memory.hpp"
#include "formats/common/zip_archive.hpp"
#include "formats/nnp/parameter_h5.hpp"
#include "formats/nnp/proto_convert.hpp"
#include "formats/nnp/proto_text.hpp"
#include "formats/nnp/solver_state_h5.hpp"
#include "formats/passes/validate_model.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nnabla.pb.h"

namespace nn::formats {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Largest network text (.nntxt/.prototxt) read: the biggest real networks are a few MiB, so a member that
// inflates beyond this is refused before it is inflated.
constexpr uint64_t kMaxNetworkTextBytes = uint64_t(256) << 20;

// Accumulates files into one NNablaProtoBuf (without parameters) plus an ordered parameter list.
class ModelLoader {
 public:
  explicit ModelLoader(const LoadOptions& options) : options_(options) {}

  void add_path(const std::string& path) {
    naming_out_of_memory(quoted(path), [&] { add_path_contents(path); });
  }

  void add_path_contents(const std::string& path) {
    switch (detect_format(path)) {
      case FileFormat::kNnp: {
        ZipReader zip = ZipReader::open_file(path);
        with_context(quoted(path), [&] {
          add_members(path, zip.names(), [&](size_t i, uint64_t max_bytes) { return zip.read(i, max_bytes); });
        });
        break;
      }
      case FileFormat::kDirectory: add_directory(path); break;
      case FileFormat::kNntxt: add_text(read_file(path, kMaxNetworkTextBytes), path); break;
      case FileFormat::kProtobuf: add_binary(read_file(path), path); break;
      case FileFormat::kH5:
        if (options_.parameters) add_parameters(nnp::read_h5_parameters_file(path, declared_check()), path);
        break;
      case FileFormat::kUnknown: {
        std::error_code ec;
        NN_CHECK(std::filesystem::exists(path, ec)) << quoted(path) << ": no such file";
        NN_FAIL(ErrorCode::kInvalid) << quoted(path) << ": unknown file format (expected .nnp, .nntxt, .prototxt, "
                                     << ".protobuf or .h5)";
      }
      default:
        NN_FAIL(ErrorCode::kInvalid) << quoted(path) << ": " << format_name(detect_format(path))
                                     << " files cannot be loaded as an NNP model";
    }
  }

  // `label` names the files in errors of the merged model.
  ir::Model finish(const std::string& label) {
    ir::Model model = nnp::proto_to_model(proto_);
    model.parameters = std::move(params_);
    apply_states(model);
    with_context(label, [&] { validate_model(model); });
    return model;
  }

  void merge_into(ir::Model& model) {
    ir::Model loaded = nnp::proto_to_model(proto_);
    std::unordered_map<std::string, size_t> index;
    for (size_t i = 0; i < model.parameters.size(); ++i) index[model.parameters[i].name] = i;
    for (auto& p : params_) {
      auto it = index.find(p.name);
      if (it != index.end()) {
        model.parameters[it->second] = std::move(p);
      } else {
        index[p.name] = model.parameters.size();
        model.parameters.push_back(std::move(p));
      }
    }
    for (const auto& o : loaded.optimizers)
      if (!o.solver.states.empty()) attach_states(model, o.name, o.solver.states, "the loaded file");
    apply_states(model);
  }

 private:
  // Archive-like inputs: text members first, then parameter members, then solver states.
  void add_members(const std::string& container, const std::vector<std::string>& names,
                   const std::function<std::string(size_t, uint64_t)>& read) {
    bool has_network = false;
    for (size_t i = 0; i < names.size(); ++i) {
      std::string ext = file_extension(names[i]);
      if (ext == "nntxt" || ext == "prototxt") {
        add_text(read(i, kMaxNetworkTextBytes), names[i]);
        has_network = true;
      }
    }
    NN_CHECK(has_network || !options_.require_network)
        << "no network definition (a *.nntxt or *.prototxt member) in the archive";
    for (size_t i = 0; i < names.size(); ++i) {
      std::string ext = file_extension(names[i]);
      if (ext == "protobuf") {
        add_binary(read(i, kMaxFileBytes), names[i]);
      } else if (ext == "h5" && options_.parameters) {
        add_parameters(nnp::read_h5_parameters(read(i, kMaxFileBytes), names[i], declared_check()), names[i]);
      } else if (ext == "optimizer" && options_.solver_states) {
        state_files_.push_back({container, names[i], read(i, kMaxFileBytes)});
      } else if (ext != "nntxt" && ext != "prototxt" && ext != "h5") {
        NN_LOG_DEBUG << "ignoring archive member '" << names[i] << "'";
      }
    }
  }

  void add_directory(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.is_regular_file()) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    with_context(quoted(dir), [&] {
      add_members(dir, names, [&](size_t i, uint64_t max_bytes) {
        return read_file((std::filesystem::path(dir) / names[i]).string(), max_bytes);
      });
    });
  }

  // Refuses a parameter whose element count contradicts a network read so far, before its data is read.
  nnp::ParameterShapeCheck declared_check() const {
    return [this](const std::string& name, const Shape& shape) {
      for (const auto& net : proto_.network())
        for (const auto& v : net.variable()) {
          if (v.name() != name || v.type() != "Parameter" || v.shape().dim_size() == 0) continue;
          Shape dims(v.shape().dim().begin(), v.shape().dim().end());
          for (auto& d : dims) d = d < 0 ? 1 : d;
          check_shape(dims, "variable " + quoted(name));
          const int64_t declared = shape_size(dims);
          NN_CHECK(declared == shape_size(shape))
              << "shape " << to_string(shape) << " contradicts network " << quoted(net.name())
              << ", which declares " << declared << " values";
        }
    };
  }

  // The file's bytes are freed once parsed, before its parameters are converted: a model's weights are held
  // at most twice at a time (MobileNetV2's 14 MB: heap peak 42.7 -> 28 MB).
  void add_text(std::string text, const std::string& name) {
    nnabla::NNablaProtoBuf part;
    nnp::merge_text(text, name, &part);
    std::string().swap(text);
    merge_part(std::move(part), name);
  }

  void add_binary(std::string bytes, const std::string& name) {
    nnabla::NNablaProtoBuf part;
    nnp::merge_binary(bytes, name, &part);
    std::string().swap(bytes);
    merge_part(std::move(part), name);
  }

  // Validates one file's content on its own (so errors name the file), then merges it. Each parameter's values
  // leave the message as they are converted.
  void merge_part(nnabla::NNablaProtoBuf part, const std::string& name) {
    with_context(quoted(name), [&] {
      std::vector<ir::Parameter> params;
      if (options_.parameters) {
        params.reserve(size_t(part.parameter_size()));
        for (auto& p : *part.mutable_parameter()) {
          params.push_back(nnp::proto_to_parameter(p));
          google::protobuf::RepeatedField<float>().Swap(p.mutable_data());
        }
      }
      part.clear_parameter();
      nnp::proto_to_model(part);  // validation only
      proto_.MergeFrom(part);
      add_parameters(std::move(params), name);
    });
  }

  void add_parameters(std::vector<ir::Parameter> params, const std::string& name) {
    for (auto& p : params) {
      auto it = param_index_.find(p.name);
      if (it != param_index_.end()) {
        NN_LOG_DEBUG << quoted(name) << ": parameter '" << p.name << "' replaces an earlier value";
        params_[it->second] = std::move(p);
      } else {
        param_index_[p.name] = params_.size();
        params_.push_back(std::move(p));
      }
    }
  }

  void attach_states(ir::Model& model, const std::string& optimizer,
                     const std::map<std::string, ir::SolverState>& states, const std::string& source) {
    for (auto& o : model.optimizers) {
      if (o.name == optimizer) {
        o.solver.states = states;
        return;
      }
    }
    NN_LOG_WARNING << source << ": solver states for unknown optimizer '" << optimizer << "' ignored";
  }

  // Solver states are optional extras: one that cannot be read is reported and skipped, so a model whose
  // network and parameters are fine still loads (for inference or conversion).
  void apply_states(ir::Model& model) {
    for (const auto& file : state_files_) {
      try {
        with_context(quoted(file.container), [&] { apply_state_file(model, file); });
      } catch (const nn::Error& e) {
        NN_LOG_WARNING << e.what() << "; solver states ignored";
      }
    }
  }

  struct StateFile;
  void apply_state_file(ir::Model& model, const StateFile& file) {
    if (file.name.size() > 13 && file.name.compare(file.name.size() - 13, 13, ".h5.optimizer") == 0) {
      for (auto& o : model.optimizers) {
        if (nnp::solver_state_member_name(o) == file.name) {
          o.solver.states = nnp::read_h5_solver_states(file.bytes, file.name);
          return;
        }
      }
      NN_LOG_WARNING << quoted(file.container) << ": " << quoted(file.name)
                     << " matches no optimizer ('<name>_<Solver>_optimizer.h5.optimizer'); ignored";
      return;
    }
    nnabla::NNablaProtoBuf states;
    nnp::merge_binary(file.bytes, file.name, &states);
    with_context(quoted(file.name), [&] {
      for (const auto& o : states.optimizer())
        attach_states(model, o.name(), nnp::proto_to_solver(o.solver()).states, quoted(file.name));
    });
  }

  struct StateFile {
    std::string container;  // the archive or directory holding it
    std::string name;
    std::string bytes;
  };
  LoadOptions options_;
  nnabla::NNablaProtoBuf proto_;
  std::vector<ir::Parameter> params_;
  std::unordered_map<std::string, size_t> param_index_;
  std::vector<StateFile> state_files_;
};

}  // namespace

ir::Model load_model(const std::vector<std::string>& paths) { return load_model(paths, LoadOptions{}); }

ir::Model load_model(const std::vector<std::string>& paths, const LoadOptions& options) {
  NN_CHECK(!paths.empty()) << "no model file given";
  ModelLoader loader(options);
  std::string label;
  for (const auto& path : paths) {
    loader.add_path(path);
    label += (label.empty() ? "" : " + ") + quoted(path);
  }
  return loader.finish(label);
}

void load_parameters_into(ir::Model& model, const std::string& path) {
  LoadOptions options;
  options.require_network = false;
  ModelLoader loader(options);
  loader.add_path(path);
  loader.merge_into(model);
}

ir::Model parse_nntxt(std::string_view text, const std::string& display_name) {
  nnabla::NNablaProtoBuf proto;
  nnp::merge_text(text, display_name, &proto);
  return with_context(quoted(display_name), [&] { return nnp::proto_to_model(proto); });
}

}  // namespace nn::formats
