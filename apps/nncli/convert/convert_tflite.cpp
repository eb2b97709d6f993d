// convert's TFLite exporter: the executor's network as a .tflite in NHWC (batch from -b); with --quantization,
// full-integer int8 calibrated by running the float network on the --dataset samples.
#include <algorithm>
#include <filesystem>
#include <limits>

#include "convert/convert_targets.hpp"
#include "executor_runner.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/datasets/cache_data_source.hpp"
#include "formats/datasets/csv_data_source.hpp"
#include "formats/datasets/npy.hpp"
#include "formats/tflite/tflite_export.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {
namespace {

constexpr int64_t kMaxSamples = 1000;  // calibration samples taken from a cache or CSV dataset

// Min and max of every variable over the representative samples (.npy, cache directory or CSV dataset).
std::map<std::string, nn::formats::CalibrationRange> calibrate(const nn::ir::Model& model,
                                                               const std::string& path) {
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
  const int64_t per_sample = nn::shape_size(runner.input_shape(0));
  // The samples: one .npy (first axis), or the first kMaxSamples of a cache directory or CSV dataset.
  std::vector<float> values;
  int64_t count = 0;
  const std::string ext = std::filesystem::path(path).extension().string();
  if (std::filesystem::is_directory(path) || ext == ".csv") {
    namespace ds = nn::formats::datasets;
    std::shared_ptr<const ds::DataSource> src;
    if (ext == ".csv") {
      ds::CsvDatasetOptions co;
      co.normalize = !source.no_image_normalization;
      src = ds::CsvDataSource::open(path, co);
    } else {
      ds::CacheDatasetOptions co;
      co.normalize = !source.no_image_normalization;
      src = ds::CacheDataSource::open(path, co);
    }
    int v = src->find_variable(source.data_variable[0].data_name);
    if (v < 0) v = src->find_variable(source.data_variable[0].variable_name);
    NN_CHECK(v >= 0) << "'" << path << "' has no variable '" << source.data_variable[0].data_name << "'";
    NN_CHECK(nn::shape_size(src->shapes()[size_t(v)]) == per_sample)
        << "'" << path << "': variable '" << src->variables()[size_t(v)] << "' has shape "
        << src->shapes()[size_t(v)] << ", the input " << runner.input_shape(0);
    count = std::min<int64_t>(src->size(), kMaxSamples);
    values.resize(size_t(count * per_sample));
    std::vector<std::vector<float>> scratch(src->variables().size());
    for (int64_t i = 0; i < count; ++i) {
      std::vector<float*> out;
      for (size_t k = 0; k < scratch.size(); ++k) {
        scratch[k].resize(size_t(nn::shape_size(src->shapes()[k])));
        out.push_back(scratch[k].data());
      }
      src->load(i, out);
      std::copy(scratch[size_t(v)].begin(), scratch[size_t(v)].end(), values.begin() + i * per_sample);
    }
  } else {
    const std::string bytes = nn::formats::read_file(path);
    size_t offset = 0;
    nn::formats::datasets::NpyArray data = nn::formats::datasets::read_npy(bytes, offset, path);
    NN_CHECK(!data.shape.empty() && data.shape[0] > 0 && int64_t(data.values.size()) == data.shape[0] * per_sample)
        << "'" << path << "': shape " << data.shape << " is not (samples, ...) of input " << runner.input_shape(0);
    count = data.shape[0];
    values.assign(data.values.begin(), data.values.end());
  }
  std::map<std::string, nn::formats::CalibrationRange> ranges;
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t s = 0; s < count; ++s) {
    std::vector<float> sample(values.begin() + s * per_sample, values.begin() + (s + 1) * per_sample);
    auto& in = ranges.try_emplace(runner.input_name(0), nn::formats::CalibrationRange{inf, -inf}).first->second;
    for (float v : sample) in.min = std::min(in.min, v), in.max = std::max(in.max, v);
    runner.set_input(0, sample);
    for (const ExecutorOutput& o : runner.run()) {
      auto& r = ranges.try_emplace(o.variable_name, nn::formats::CalibrationRange{inf, -inf}).first->second;
      for (float v : o.values) r.min = std::min(r.min, v), r.max = std::max(r.max, v);
    }
  }
  NN_LOG_INFO << "TFLite int8: calibrated on " << count << " sample(s) of '" << path << "'";
  for (const auto& [name, r] : ranges)
    NN_LOG_VERBOSE << "  range '" << name << "': [" << r.min << ", " << r.max << "]";
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
  o.dynamic_batch = options.dynamic_batch;
  o.channel_last = options.channel_last;
  o.float_io = options.tflite_float_io;
  if (options.quantization) o.int8_ranges = calibrate(model, options.dataset);
  nn::formats::save_tflite(model, output, o);
}

}  // namespace nncli
