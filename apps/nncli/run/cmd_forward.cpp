// `nncli forward`: run every executor over a CSV or cache dataset and write output_result.csv
// (docs/command_line.md#forward).
#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <memory>

#include "command.hpp"
#include "common/command_options.hpp"
#include "common/input_file_check.hpp"
#include "common/progress.hpp"
#include "executor_runner.hpp"
#include "formats/datasets/cache_data_source.hpp"
#include "formats/datasets/csv_data_source.hpp"
#include "formats/datasets/csv_text.hpp"
#include "formats/datasets/data_iterator.hpp"
#include "formats/datasets/forward_result.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace ds = nn::formats::datasets;
namespace fs = std::filesystem;

struct ForwardOptions {
  std::string config;
  std::string param;
  std::string dataset;
  std::string outdir;
  std::string outfile = "output_result.csv";
  bool replace_path = false;
  std::string result_outdir;
  int64_t batch_size = -1;
  std::string context;
  bool no_optimize = false;
};

std::shared_ptr<ForwardOptions> setup_forward(CLI::App& command) {
  auto o = std::make_shared<ForwardOptions>();
  add_model_config_option(command, o->config, "Model (.nnp, .nntxt)")->required();
  add_param_option(command, o->param, "Extra parameter file (.h5, .protobuf, .nnp)");
  add_context_option(command, o->context);
  command.add_option("-d,--dataset", o->dataset, "Dataset: a .csv file or a .cache directory")
      ->check(existing_input());
  add_outdir_option(command, o->outdir, "Output directory");
  command.add_option("-f,--outfile", o->outfile, "Result CSV name inside the output directory")
      ->capture_default_str();
  command.add_flag("--replace_path,--replace-path", o->replace_path,
                   "Write the dataset's data paths as absolute paths");
  add_no_optimize_flag(command, o->no_optimize);
  command.add_option("--result_outdir,--result-outdir", o->result_outdir,
                     "Sub-directory of the output directory for per-sample result files");
  add_run_batch_size_option(command, o->batch_size);
  return o;
}

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Upstream: normalise unless the dataset entry matching -d or any executor says no_image_normalization.
bool image_normalization(const nn::ir::Model& model, const std::string& dataset) {
  bool normalize = true;
  for (const auto& d : model.datasets)
    if (d.uri == dataset || d.cache_dir == dataset) normalize = !d.no_image_normalization;
  for (const auto& e : model.executors) normalize = normalize && !e.no_image_normalization;
  return normalize;
}

}  // namespace

int run_forward(const ForwardOptions& opt) {
  NN_CHECK_CODE(!opt.dataset.empty(), nn::ErrorCode::kUsage) << "forward: -d/--dataset is required";
  fs::create_directories(opt.outdir);
  // progress.txt is emptied at the start and at the end (docs/command_line.md#global-behaviour).
  ProgressFile progress(opt.outdir);

  std::vector<std::string> files{opt.config};
  if (!opt.param.empty()) files.push_back(opt.param);
  ImportOptions import_options;
  import_options.optimize = !opt.no_optimize;
  nn::ir::Model model = import_model(files, import_options);
  NN_CHECK(!model.executors.empty()) << quoted(opt.config) << ": the model has no executor";
  const bool normalize = image_normalization(model, opt.dataset);

  RunnerOptions ro;
  ro.batch_size = opt.batch_size < 1 ? -1 : opt.batch_size;
  ro.context = select_context(opt.context, model);
  std::vector<std::unique_ptr<ExecutorRunner>> runners;
  for (const auto& e : model.executors) {
    auto* take = &e == &model.executors.back() ? &model.parameters : nullptr;  // the last runner keeps the weights
    runners.push_back(nn::with_context(quoted(opt.config),
                                       [&] { return std::make_unique<ExecutorRunner>(model, e, ro, take); }));
  }

  std::shared_ptr<ds::DataSource> source;
  ds::ResultTable table;
  const std::string ext = ds::lower_extension(opt.dataset);
  if (ext == ".csv") {
    source = ds::CsvDataSource::open(opt.dataset, ds::CsvDatasetOptions{normalize});
    table = ds::result_table_from_csv(opt.dataset, opt.replace_path);
  } else if (ext == ".cache" || fs::is_directory(opt.dataset)) {  // train's caches need not end in .cache
    source = ds::CacheDataSource::open(opt.dataset, ds::CacheDatasetOptions{normalize});
    table = ds::result_table_from_cache(opt.dataset, source->size());
  } else {
    NN_FAIL(nn::ErrorCode::kInvalid) << "Unsupported extension \"" << ext << "\" in \"" << opt.dataset << "\".";
  }

  // Which dataset variable feeds each data variable of each executor.
  std::vector<std::vector<int>> feeds(runners.size());
  for (size_t r = 0; r < runners.size(); ++r) {
    for (const auto& d : runners[r]->executor().data_variable) {
      int v = source->find_variable(d.data_name);
      std::string available;
      for (const auto& name : source->variables()) available += (available.empty() ? "" : ", ") + quoted(name);
      NN_CHECK(v >= 0) << "executor " << quoted(runners[r]->executor().name) << ": data " << quoted(d.data_name)
                       << " is not a variable of dataset " << quoted(opt.dataset) << " (it has " << available
                       << ")";
      feeds[r].push_back(v);
    }
  }

  const int64_t batch = runners.front()->batch_size();
  ds::IteratorOptions io;
  io.batch_size = batch;
  ds::DataIterator iterator(source, io);
  const bool std_header = model.executors.back().repeat_evaluation_type == "std";
  ds::ForwardResultWriter writer(std::move(table), opt.outdir, opt.outfile, opt.result_outdir, std_header);
  const int64_t total = writer.size();

  // Upstream logs "data N / M" after every batch; here the first, then at most one a second, and the last.
  auto last_log = std::chrono::steady_clock::now() - std::chrono::seconds(2);
  for (int64_t index = 0; index < iterator.size();) {
    ds::Batch data = iterator.next();
    std::vector<ExecutorOutput> outputs;
    for (size_t r = 0; r < runners.size(); ++r) {
      ExecutorRunner& runner = *runners[r];
      for (size_t i = 0; i < feeds[r].size(); ++i) {
        const auto& values = data.data[size_t(feeds[r][i])];
        const nn::Shape& shape = runner.input_shape(i);
        NN_CHECK(int64_t(values.size()) == nn::shape_size(shape))
            << "executor " << quoted(runner.executor().name) << ": data "
            << quoted(runner.executor().data_variable[i].data_name) << " of shape "
            << nn::to_string(data.shapes[size_t(feeds[r][i])]) << " cannot be reshaped to variable "
            << quoted(runner.input_name(i)) << " of shape " << nn::to_string(shape);
        runner.set_input(i, values);
      }
      for (auto& o : runner.run()) outputs.push_back(std::move(o));
    }
    for (const auto& o : outputs)
      NN_CHECK(!o.shape.empty() && o.shape[0] == batch)
          << "output " << quoted(o.variable_name) << " of shape " << nn::to_string(o.shape)
          << " has no batch axis of size " << batch;
    for (int64_t k = 0; k < batch; ++k) {
      std::vector<ds::ResultOutput> sample;
      for (const auto& o : outputs) {
        nn::Shape per(o.shape.begin() + 1, o.shape.end());
        sample.push_back({o.data_name, o.type, per, o.values.data() + k * nn::shape_size(per)});
      }
      writer.add_sample(index + k, sample);
    }
    index += batch;
    const auto now = std::chrono::steady_clock::now();
    if (index >= total || now - last_log >= std::chrono::seconds(1)) {
      NN_LOG_INFO << "data " << std::min(index, total) << " / " << total;
      last_log = now;
    }
  }
  writer.close();
  NN_LOG_INFO << "Forward Completed.";
  progress.clear();
  return 0;
}

}  // namespace nncli
