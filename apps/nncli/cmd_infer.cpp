// `nncli infer`: run an executor on raw binary (or .npy) inputs and write PREFIX_<n>.bin as nnabla does.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "array_io.hpp"
#include "command.hpp"
#include "command_options.hpp"
#include "input_file_check.hpp"
#include "json_text.hpp"
#include "formats/datasets/image_io.hpp"
#include "formats/datasets/npy.hpp"
#include "executor_runner.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/common/file_format.hpp"
#include "model_session.hpp"
#include "nnb_runner.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/core/single_run.hpp"
#include "py_format.hpp"

namespace nncli {

struct InferOptions {
  std::string config;
  std::string param;
  std::string output;
  std::string data_type = "float32";
  int64_t batch_size = 1;
  std::string executor;
  std::string format = "bin";
  bool init_missing = false;
  bool no_image_normalization = false;
  bool no_optimize = false;
  uint32_t seed = 0;
  std::string context;
  std::vector<std::string> files;
};

std::shared_ptr<InferOptions> setup_infer(CLI::App& command) {
  auto o = std::make_shared<InferOptions>();
  add_model_config_option(command, o->config, "Model (.nnp, .nntxt); may also be given positionally");
  add_param_option(command, o->param, "Parameter file (.h5, .protobuf, .nnp)");
  command.add_option("-o,--output", o->output, "Output prefix: writes PREFIX_<sample>.bin (nothing without it)");
  command.add_option("-t,--data_type,--data-type", o->data_type, "Type of raw inputs: float32, uint8 or int32")
      ->check(CLI::IsMember({"float32", "uint8", "int32"}));
  add_run_batch_size_option(command, o->batch_size);
  add_context_option(command, o->context);
  command.add_option("-e,--executor", o->executor, "Executor name (default: the first)");
  command
      .add_option("--format", o->format,
                  "bin: PREFIX_<sample>.bin (nnabla); npy/txt: PREFIX_<output>.npy/.txt; json: to stdout")
      ->check(CLI::IsMember({"bin", "npy", "txt", "json"}))
      ->capture_default_str();
  command.add_flag("--init-missing", o->init_missing,
                   "Initialize parameters missing from the files from their initializers");
  command.add_option("--seed", o->seed, "Seed for --init-missing and generator variables")->capture_default_str();
  command.add_flag("--no-image-normalization", o->no_image_normalization,
                   "Image inputs (png/jpg/bmp) as raw 0-255 values instead of /255");
  add_no_optimize_flag(command, o->no_optimize);
  command
      .add_option("files", o->files,
                  "Model files, then one input (.bin raw, .npy or a png/jpg/bmp image) per data variable")
      ->check(existing_input());
  return o;
}

namespace {

std::string single_quoted(const std::string& s) { return "'" + s + "'"; }

// -t float32 reads a file whose name contains "int32" or "uint8" with that type (nnabla_cli).
nn::DType input_dtype(const std::string& path, const std::string& requested) {
  if (requested == "float32") {
    if (path.find("int32") != std::string::npos) return nn::DType::kInt32;
    if (path.find("uint8") != std::string::npos) return nn::DType::kUInt8;
  }
  return parse_input_dtype(requested);
}

bool is_image_file(const std::string& path) {
  const std::string ext = nn::formats::file_extension(path);
  return ext == "png" || ext == "jpg" || ext == "jpeg" || ext == "bmp" || ext == "gif" || ext == "pgm";
}

// An image (C, H, W) for an image-shaped input: every sample of the batch gets it; /255 unless raw.
std::vector<float> read_image_input(const std::string& path, bool normalize, const std::string& what,
                                    const nn::Shape& shape) {
  auto image = nn::formats::datasets::read_image(path);
  const int64_t per_sample = nn::shape_size(image.shape());
  NN_CHECK(per_sample > 0 && nn::shape_size(shape) % per_sample == 0)
      << single_quoted(path) << ": image of shape " << nn::to_string(image.shape()) << " does not fit " << what;
  std::vector<float> values(size_t(nn::shape_size(shape)));
  nn::formats::datasets::image_to_float(image, normalize, values.data());
  for (size_t i = size_t(per_sample); i < values.size(); ++i) values[i] = values[i % size_t(per_sample)];
  return values;
}

std::vector<float> read_input(const std::string& path, const std::string& data_type, const std::string& name,
                              const nn::Shape& shape, bool normalize_images) {
  const std::string what = "input " + single_quoted(name) + " " + nn::to_string(shape);
  if (is_image_file(path)) return read_image_input(path, normalize_images, what, shape);
  if (nn::formats::file_extension(path) == "npy") {
    HostArray a = read_npy(path);
    NN_CHECK(nn::shape_size(a.shape) == nn::shape_size(shape))
        << single_quoted(path) << ": array of shape " << nn::to_string(a.shape) << " (" << nn::shape_size(a.shape)
        << " values), but " << what << " needs " << nn::shape_size(shape) << " values";
    return std::move(a.values);
  }
  return read_raw_array(path, input_dtype(path, data_type), nn::shape_size(shape), what);
}

// Sample b of every output, flattened and concatenated (an output without the batch axis goes whole).
std::string sample_bytes(const std::vector<ExecutorOutput>& outputs, int64_t batch, int64_t b) {
  std::string bytes;
  for (const auto& o : outputs) {
    const bool batched = !o.shape.empty() && o.shape[0] == batch;
    const size_t per = batched ? o.values.size() / size_t(batch) : o.values.size();
    const float* begin = o.values.data() + (batched ? size_t(b) * per : 0);
    bytes.append(reinterpret_cast<const char*>(begin), per * sizeof(float));
  }
  return bytes;
}

void print_json(const std::string& executor, int64_t batch, const std::vector<ExecutorOutput>& outputs) {
  nlohmann::ordered_json j;
  j["executor"] = executor;
  j["batch_size"] = batch;
  j["outputs"] = nlohmann::ordered_json::array();
  for (const auto& o : outputs) {
    nlohmann::ordered_json data = nlohmann::ordered_json::array();
    // Through the shortest float32 text so that 0.1f prints as 0.1, not 0.10000000149011612.
    for (float v : o.values) {
      if (std::isfinite(v)) {
        data.push_back(std::stod(shortest_float(v)));
      } else {
        data.push_back(nullptr);  // JSON has no NaN/Inf
      }
    }
    j["outputs"].push_back(
        {{"name", o.variable_name}, {"data_name", o.data_name}, {"shape", o.shape}, {"data", data}});
  }
  std::printf("%s\n", json_text(j).c_str());
}

// Every file is rendered before the first one is written, so an error leaves no partial output.
void write_outputs(const InferOptions& opt, int64_t batch, const std::vector<ExecutorOutput>& outputs) {
  std::vector<std::pair<std::string, std::string>> files;
  if (opt.format == "bin") {
    for (int64_t b = 0; b < batch; ++b)
      files.push_back({opt.output + "_" + std::to_string(b) + ".bin", sample_bytes(outputs, batch, b)});
  } else {
    for (size_t j = 0; j < outputs.size(); ++j) {
      const auto& o = outputs[j];
      const bool npy = opt.format == "npy";
      files.push_back({opt.output + "_" + std::to_string(j) + (npy ? ".npy" : ".txt"),
                       npy ? nn::formats::datasets::npy_record("<f4", o.shape, {o.values.begin(), o.values.end()})
                           : text_image(o.shape, o.values)});
    }
  }
  for (const auto& [path, bytes] : files) {
    nn::formats::write_file_atomic(path, bytes);
    NN_LOG_VERBOSE << "wrote " << path;
  }
}

}  // namespace

int run_infer(const InferOptions& opt) {
  std::vector<std::string> models, inputs;
  if (!opt.config.empty()) models.push_back(opt.config);
  for (const auto& f : opt.files)
    ((is_model_file(f) || is_nnb_file(f)) && inputs.empty() ? models : inputs).push_back(f);
  if (!opt.param.empty()) models.push_back(opt.param);
  NN_CHECK_CODE(!models.empty(), nn::ErrorCode::kUsage) << "infer: no model file (.nnp, .nntxt) given";
  NN_CHECK_CODE(opt.format == "json" || opt.format == "bin" || !opt.output.empty(), nn::ErrorCode::kUsage)
      << "infer: --format " << opt.format << " needs -o/--output PREFIX";
  nn::set_single_run(true);  // the network runs once: small layers skip setup that only later runs win back

  nn::ir::Model model = is_nnb_file(models.front()) ? load_nnb_model(models.front()) : import_model(models, [&] {
    ImportOptions io;
    io.optimize = !opt.no_optimize;
    return io;
  }());
  const nn::ir::Executor& executor = find_executor(model, opt.executor);
  RunnerOptions ro;
  ro.batch_size = opt.batch_size;
  ro.init_missing = opt.init_missing;
  ro.seed = opt.seed;
  ro.context = select_context(opt.context, model);
  ExecutorRunner runner = nn::with_context(single_quoted(models.front()),
                                           [&] { return ExecutorRunner(model, executor, ro, &model.parameters); });

  std::string names;
  for (size_t i = 0; i < runner.num_inputs(); ++i) names += (i ? ", " : "") + single_quoted(runner.input_name(i));
  NN_CHECK(inputs.size() == runner.num_inputs())
      << "executor " << single_quoted(executor.name) << " has " << runner.num_inputs() << " data variable(s)"
      << (names.empty() ? "" : " (" + names + ")") << ", but " << inputs.size() << " input file(s) were given";
  for (size_t i = 0; i < inputs.size(); ++i)
    runner.set_input(i, read_input(inputs[i], opt.data_type, runner.input_name(i), runner.input_shape(i),
                                   !opt.no_image_normalization));

  std::vector<ExecutorOutput> outputs = runner.run();
  if (opt.format == "json") {
    print_json(executor.name, runner.batch_size(), outputs);
  } else if (!opt.output.empty()) {
    write_outputs(opt, runner.batch_size(), outputs);
  } else {
    NN_LOG_INFO << "no -o/--output prefix: results not written (use -o PREFIX or --format json)";
  }
  return 0;
}

}  // namespace nncli
