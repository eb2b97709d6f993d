// convert's TFLite exporter: the executor's network as a .tflite in NHWC (batch from -b); with --quantization,
// full-integer int8 calibrated by running the float network on the --dataset samples.
#include <algorithm>
#include <limits>

#include "convert_targets.hpp"
#include "executor_runner.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/datasets/npy.hpp"
#include "formats/tflite/tflite_export.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {
namespace {

// Min and max of every variable over the samples of a .npy whose first axis runs over samples.
std::map<std::string, nn::formats::CalibrationRange> calibrate(const nn::ir::Model& model, const std::string& path) {
  NN_CHECK(model.executors.size() == 1) << "--quantization needs a model with one executor (use -E)";
  const nn::ir::Executor& source = model.executors[0];
  NN_CHECK(source.data_variable.size() == 1)
      << "--dataset as one .npy feeds one input; the network has " << source.data_variable.size();
  nn::ir::Executor probe = source;  // every variable of the network becomes an output
  const nn::ir::Network* network = model.find_network(source.network_name);
  NN_CHECK(network != nullptr) << "executor network '" << source.network_name << "' is missing";
  probe.output_variable.clear();
  for (const auto& v : network->variables)
    if (v.type != "Parameter") probe.output_variable.push_back({v.name, "", v.name});
  RunnerOptions ro;
  ro.batch_size = 1;
  ExecutorRunner runner(model, probe, ro);
  const std::string bytes = nn::formats::read_file(path);
  size_t offset = 0;
  nn::formats::datasets::NpyArray data = nn::formats::datasets::read_npy(bytes, offset, path);
  const int64_t per_sample = nn::shape_size(runner.input_shape(0));
  NN_CHECK(!data.shape.empty() && data.shape[0] > 0 && int64_t(data.values.size()) == data.shape[0] * per_sample)
      << "'" << path << "': shape " << data.shape << " is not (samples, ...) of input " << runner.input_shape(0);
  std::map<std::string, nn::formats::CalibrationRange> ranges;
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t s = 0; s < data.shape[0]; ++s) {
    std::vector<float> sample(data.values.begin() + s * per_sample, data.values.begin() + (s + 1) * per_sample);
    auto& in = ranges.try_emplace(runner.input_name(0), nn::formats::CalibrationRange{inf, -inf}).first->second;
    for (float v : sample) in.min = std::min(in.min, v), in.max = std::max(in.max, v);
    runner.set_input(0, sample);
    for (const ExecutorOutput& o : runner.run()) {
      auto& r = ranges.try_emplace(o.variable_name, nn::formats::CalibrationRange{inf, -inf}).first->second;
      for (float v : o.values) r.min = std::min(r.min, v), r.max = std::max(r.max, v);
    }
  }
  NN_LOG_INFO << "TFLite int8: calibrated on " << data.shape[0] << " sample(s) of '" << path << "'";
  for (const auto& [name, r] : ranges) NN_LOG_VERBOSE << "  range '" << name << "': [" << r.min << ", " << r.max << "]";
  return ranges;
}

}  // namespace

void export_tflite(const nn::ir::Model& model, const std::string& output, const ConvertOptions& options) {
  NN_CHECK_CODE(options.config.empty(), nn::ErrorCode::kUnsupported)
      << "-c (function-list split) is not implemented for TFLite export";
  NN_CHECK_CODE(!options.quantization || !options.dataset.empty(), nn::ErrorCode::kUsage)
      << "--quantization needs --dataset (a .npy of representative inputs)";
  nn::formats::TfliteExportOptions o;
  o.batch_size = options.batch_size;
  o.float_io = options.tflite_float_io;
  if (options.quantization) o.int8_ranges = calibrate(model, options.dataset);
  nn::formats::save_tflite(model, output, o);
}

}  // namespace nncli
