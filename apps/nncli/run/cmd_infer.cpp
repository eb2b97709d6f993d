// `nncli infer`: run an executor on raw binary (or .npy) inputs and write PREFIX_<n>.bin as nnabla does.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <optional>
#include <nlohmann/json.hpp>

#include "common/array_io.hpp"
#include "command.hpp"
#include "common/command_options.hpp"
#include "common/input_file_check.hpp"
#include "common/json_text.hpp"
#include "formats/datasets/image_io.hpp"
#include "formats/datasets/npy.hpp"
#include "formats/onnx/common/onnx_graph_inputs.hpp"
#include "executor_runner.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/common/file_format.hpp"
#include "formats/tflite/tflite_quantized_io.hpp"
#include "model_session.hpp"
#include "nnb_runner.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/core/single_run.hpp"
#include "common/py_format.hpp"

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
  bool dequantize = false;
  uint32_t seed = 0;
  std::string context;
  std::vector<std::string> files;
  std::vector<std::string> input_shapes;
};

std::shared_ptr<InferOptions> setup_infer(CLI::App& command) {
  auto o = std::make_shared<InferOptions>();
  add_model_config_option(command, o->config, "Model (.nnp, .nntxt); may also be given positionally");
  add_param_option(command, o->param, "Parameter file (.h5, .protobuf, .nnp)");
  command.add_option("-o,--output", o->output, "Output prefix: writes PREFIX_<sample>.bin (nothing without it)");
  command
      .add_option(
          "-t,--data_type,--data-type", o->data_type,
          "Type of raw .bin inputs: float32, uint8, int8 or int32. For a quantized (int8/uint8/int16) input "
          "of a .tflite model, float arrays (.bin float32, .npy float) are real values, quantized with the "
          "input's scale and zero point as TFLite's QUANTIZE does; integer arrays are its raw integers")
      ->check(CLI::IsMember({"float32", "uint8", "int8", "int32"}));
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
  add_input_shape_option(command, o->input_shapes,
                         "NAME=d0,d1,...: run input NAME at this shape (fixes an ONNX model's dynamic axes; a "
                         ".npy input sets it by itself)");
  command.add_flag("--dequantize", o->dequantize,
                   "Quantized outputs of a .tflite model as real values scale * (q - zero_point); without it they "
                   "are the runtime's raw integers (every --format)");
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

// The .npy inputs, each read once before the model is loaded: their shapes may set the shapes it runs at.
std::vector<std::optional<HostArray>> read_npy_inputs(const std::vector<std::string>& inputs) {
  std::vector<std::optional<HostArray>> arrays(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (nn::formats::file_extension(inputs[i]) == "npy") arrays[i] = read_npy(inputs[i]);
  return arrays;
}

// An image's pixels are real values when normalized (/255), integers 0-255 when not. `npy` holds a .npy input's
// array, read already.
HostArray read_input(const std::string& path, std::optional<HostArray>& npy, const std::string& data_type,
                     const std::string& name, const nn::Shape& shape, bool normalize_images) {
  const std::string what = "input " + single_quoted(name) + " " + nn::to_string(shape);
  if (is_image_file(path)) {
    HostArray a{shape, read_image_input(path, normalize_images, what, shape), ElementKind::kReal, "float32"};
    if (!normalize_images) a.kind = ElementKind::kInteger, a.type = "uint8";
    return a;
  }
  if (npy) {
    HostArray a = std::move(*npy);
    NN_CHECK(nn::shape_size(a.shape) == nn::shape_size(shape))
        << single_quoted(path) << ": array of shape " << nn::to_string(a.shape) << " (" << nn::shape_size(a.shape)
        << " values), but " << what << " needs " << nn::shape_size(shape) << " values";
    return a;
  }
  return read_raw_array(path, input_dtype(path, data_type), nn::shape_size(shape), what);
}

// Inputs given as .npy arrays of another size than the network's but of its number of axes set the shapes the
// network runs at (a model whose shapes follow its inputs); other inputs keep the built shape.
void choose_input_shapes(ExecutorRunner& runner, const std::vector<std::optional<HostArray>>& npy) {
  std::vector<nn::Shape> shapes;
  bool changed = false;
  for (size_t i = 0; i < npy.size(); ++i) {
    shapes.push_back(runner.input_shape(i));
    if (!npy[i]) continue;
    const nn::Shape& given = npy[i]->shape;
    if (given.size() != shapes[i].size() || nn::shape_size(given) == nn::shape_size(shapes[i])) continue;
    shapes[i] = given;
    changed = true;
  }
  if (changed) runner.set_input_shapes(shapes);
}

// An ONNX model whose inputs have free dims (dynamic axes) is imported at the shapes of its .npy inputs: every
// shape computation of the graph is then traced at the real shapes. Inputs named in `given` keep those shapes.
void add_onnx_shapes_of_npy_inputs(const std::string& model, const std::vector<std::optional<HostArray>>& npy,
                                   std::map<std::string, std::vector<int64_t>>& given) {
  if (nn::formats::file_extension(model) != "onnx") return;
  const auto graph_inputs = nn::formats::onnx::read_graph_inputs(model);
  if (!graph_inputs || !nn::formats::onnx::has_free_dims(*graph_inputs)) return;
  for (size_t i = 0; i < graph_inputs->size() && i < npy.size(); ++i) {
    const std::string& name = (*graph_inputs)[i].name;
    const nn::Shape& dims = (*graph_inputs)[i].dims;
    if (given.count(name) || !npy[i]) continue;
    const nn::Shape& shape = npy[i]->shape;
    bool fits = shape.size() == dims.size();
    for (size_t d = 0; fits && d < dims.size(); ++d) fits = dims[d] < 0 || dims[d] == shape[d];
    if (fits) given[name] = shape;
  }
}

// The raw integers a quantized input holds (the network dequantizes them): real values quantized as TFLite's
// QUANTIZE does, integers taken as they are if the type holds them; any other array is refused.
std::vector<float> quantized_input(HostArray a, const nn::formats::QuantizedIo& q, const std::string& path,
                                   const std::string& name) {
  const std::string what = "input " + single_quoted(name) + " (" + q.describe() + "): " + single_quoted(path);
  NN_CHECK(a.kind != ElementKind::kOther)
      << what << " holds " << a.type << " values; give real values as a float array (they are quantized) or "
      << "the raw integers as an integer array";
  for (size_t i = 0; i < a.values.size(); ++i) {
    float& v = a.values[i];
    if (a.kind == ElementKind::kInteger) {
      NN_CHECK(v >= float(q.min) && v <= float(q.max))
          << what << ": integer " << v << " at index " << i << " is outside " << q.type << " (" << q.min << " to "
          << q.max << "); real values go in a float array";
    } else {
      NN_CHECK(!std::isnan(v)) << what << ": NaN at index " << i << " cannot be quantized";
      v = float(q.quantize(v));
    }
  }
  NN_LOG_VERBOSE << what << ": " << (a.kind == ElementKind::kReal ? "real values, quantized" : "raw integers");
  return std::move(a.values);
}

// The quantization of a .tflite model's inputs and outputs; none for other formats.
nn::formats::TfliteQuantizedIo model_quantized_io(const std::string& model_path, const ExecutorRunner& runner,
                                                  size_t outputs) {
  nn::formats::TfliteQuantizedIo io;
  if (nn::formats::file_extension(model_path) == "tflite") io = nn::formats::read_tflite_quantized_io(model_path);
  io.inputs.resize(runner.num_inputs());
  io.outputs.resize(outputs);
  return io;
}

// --dequantize: a quantized output's integers as the real values they stand for.
void dequantize_outputs(std::vector<ExecutorOutput>& outputs, const nn::formats::TfliteQuantizedIo& io) {
  for (size_t j = 0; j < outputs.size(); ++j)
    if (io.outputs[j])
      for (float& v : outputs[j].values) v = io.outputs[j]->dequantize(v);
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

// A quantized output also names its type, scale and zero point, and whether its data are the raw integers.
void print_json(const std::string& executor, int64_t batch, const std::vector<ExecutorOutput>& outputs,
                const nn::formats::TfliteQuantizedIo& io, bool dequantized) {
  nlohmann::ordered_json j;
  j["executor"] = executor;
  j["batch_size"] = batch;
  j["outputs"] = nlohmann::ordered_json::array();
  for (size_t k = 0; k < outputs.size(); ++k) {
    const ExecutorOutput& o = outputs[k];
    nlohmann::ordered_json data = nlohmann::ordered_json::array();
    // Through the shortest float32 text so that 0.1f prints as 0.1, not 0.10000000149011612.
    for (float v : o.values) {
      if (std::isfinite(v)) {
        data.push_back(std::stod(shortest_float(v)));
      } else {
        data.push_back(nullptr);  // JSON has no NaN/Inf
      }
    }
    nlohmann::ordered_json entry = {{"name", o.variable_name}, {"data_name", o.data_name}, {"shape", o.shape}};
    if (const auto& q = io.outputs[k])
      entry["quantization"] = {{"type", q->type},
                               {"scale", std::stod(shortest_float(float(q->scale)))},
                               {"zero_point", q->zero_point},
                               {"dequantized", dequantized}};
    entry["data"] = std::move(data);
    j["outputs"].push_back(std::move(entry));
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
  const std::map<std::string, nn::Shape> given_shapes = input_shape_map(opt.input_shapes);

  std::vector<std::optional<HostArray>> npy = read_npy_inputs(inputs);
  std::map<std::string, nn::Shape> shapes = given_shapes;
  add_onnx_shapes_of_npy_inputs(models.front(), npy, shapes);
  RunnerOptions ro;
  ro.batch_size = opt.batch_size;
  ro.init_missing = opt.init_missing;
  ro.seed = opt.seed;
  std::unique_ptr<ExecutorRunner> loaded = load_runner(
      models, opt.executor, opt.context, ro, NamedShapes(shapes.begin(), shapes.end()), !opt.no_optimize);
  ExecutorRunner& runner = *loaded;
  const nn::ir::Executor& executor = runner.executor();

  std::string names;
  for (size_t i = 0; i < runner.num_inputs(); ++i) names += (i ? ", " : "") + single_quoted(runner.input_name(i));
  NN_CHECK(inputs.size() == runner.num_inputs())
      << "executor " << single_quoted(executor.name) << " has " << runner.num_inputs() << " data variable(s)"
      << (names.empty() ? "" : " (" + names + ")") << ", but " << inputs.size() << " input file(s) were given";
  choose_input_shapes(runner, npy);
  const nn::formats::TfliteQuantizedIo io =
      model_quantized_io(models.front(), runner, executor.output_variable.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    HostArray a = read_input(inputs[i], npy[i], opt.data_type, runner.input_name(i), runner.input_shape(i),
                             !opt.no_image_normalization);
    runner.set_input(i, io.inputs[i]
                            ? quantized_input(std::move(a), *io.inputs[i], inputs[i], runner.input_name(i))
                            : std::move(a.values));
  }

  std::vector<ExecutorOutput> outputs = runner.run();
  NN_INTERNAL_CHECK(outputs.size() == io.outputs.size()) << outputs.size() << " outputs";
  if (opt.dequantize) dequantize_outputs(outputs, io);
  if (opt.format == "json") {
    print_json(executor.name, runner.batch_size(), outputs, io, opt.dequantize);
  } else if (!opt.output.empty()) {
    write_outputs(opt, runner.batch_size(), outputs);
  } else {
    NN_LOG_INFO << "no -o/--output prefix: results not written (use -o PREFIX or --format json)";
  }
  return 0;
}

}  // namespace nncli
