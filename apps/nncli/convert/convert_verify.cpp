// `convert --verify`: source vs converted outputs on the same inputs (max abs/rel error, cosine, argmax
// agreement).
#include "convert/convert_verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "common/array_io.hpp"
#include "executor_runner.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nnb_runner.hpp"
#include "common/json_text.hpp"
#include "nn/core/printable.hpp"

namespace nncli {

namespace {

struct OutputReport {
  std::string name;
  nn::Shape shape;
  double max_abs = 0, max_rel = 0, cosine = 1;
  int64_t argmax_same = 0, samples = 0;
  bool ok = true;
};

bool is_data_argument(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
  for (const char* e : {".npy", ".bin", ".raw", ".png", ".jpg", ".jpeg", ".bmp"})
    if (ext == e) return true;
  return false;
}

std::vector<float> load_input(const std::string& path, const std::string& name, const nn::Shape& shape) {
  const std::string what = "input '" + name + "' " + nn::to_string(shape);
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".npy") {
    HostArray a = read_npy(path);
    NN_CHECK(nn::shape_size(a.shape) == nn::shape_size(shape))
        << "'" << path << "': array of shape " << a.shape << ", but " << what << " needs " << nn::shape_size(shape)
        << " values";
    return std::move(a.values);
  }
  return read_raw_array(path, nn::DType::kFloat32, nn::shape_size(shape), what).values;
}

// Per-sample argmax over everything but the batch axis (the whole array when it has rank <= 1).
std::pair<int64_t, int64_t> argmax_agreement(const ExecutorOutput& a, const ExecutorOutput& b) {
  const int64_t samples = a.shape.size() >= 2 ? a.shape[0] : 1;
  const size_t per = samples > 0 ? a.values.size() / size_t(samples) : 0;
  int64_t same = 0;
  for (int64_t s = 0; s < samples && per > 0; ++s) {
    auto first_a = a.values.begin() + s * per, first_b = b.values.begin() + s * per;
    same +=
        std::max_element(first_a, first_a + per) - first_a == std::max_element(first_b, first_b + per) - first_b;
  }
  return {same, samples};
}

OutputReport compare(const ExecutorOutput& source, const ExecutorOutput& converted, const VerifySettings& s) {
  OutputReport r;
  r.name = source.variable_name;
  r.shape = source.shape;
  NN_CHECK_CODE(source.values.size() == converted.values.size(), nn::ErrorCode::kCheckFailed)
      << "convert --verify: output '" << source.variable_name << "' has shape " << source.shape
      << " in the source but " << converted.shape << " in the converted model";
  double dot = 0, norm_a = 0, norm_b = 0;
  for (size_t i = 0; i < source.values.size(); ++i) {
    const double a = converted.values[i], b = source.values[i];
    const double diff = std::isnan(a) && std::isnan(b) ? 0.0 : std::fabs(a - b);
    if (!(diff <= s.atol + s.rtol * std::fabs(b))) r.ok = false;
    if (!(diff <= r.max_abs)) r.max_abs = std::isnan(diff) ? INFINITY : diff;
    const double rel = diff / std::max(std::fabs(b), 1e-12);
    if (diff > 0 && !(rel <= r.max_rel)) r.max_rel = rel;
    dot += a * b;
    norm_a += a * a;
    norm_b += b * b;
  }
  r.cosine = norm_a == 0 && norm_b == 0 ? 1.0 : dot / std::sqrt(norm_a * norm_b);
  std::tie(r.argmax_same, r.samples) = argmax_agreement(source, converted);
  return r;
}

nn::ir::Model load_converted(const ConvertOptions& o) {
  if (is_nnb_file(o.output)) return load_nnb_model(o.output);
  ImportOptions import;
  import.import_format = o.export_format;
  return import_model({o.output}, import);
}

void print_reports(const std::vector<OutputReport>& reports, const ConvertOptions& o, const VerifySettings& s,
                   bool random_inputs) {
  if (s.format == "json") {
    nlohmann::ordered_json j;
    j["source"] = o.inputs.front();
    j["converted"] = o.output;
    j["inputs"] = random_inputs ? "random" : "files";
    j["atol"] = s.atol;
    j["rtol"] = s.rtol;
    j["outputs"] = nlohmann::ordered_json::array();
    bool all = true;
    for (const auto& r : reports) {
      all = all && r.ok;
      j["outputs"].push_back({{"name", r.name},
                              {"shape", r.shape},
                              {"max_abs_error", r.max_abs},
                              {"max_rel_error", r.max_rel},
                              {"cosine", r.cosine},
                              {"argmax_agree", r.argmax_same},
                              {"samples", r.samples},
                              {"ok", r.ok}});
    }
    j["ok"] = all;
    std::printf("%s\n", json_text(j, 2).c_str());
    return;
  }
  std::printf("%-32s %-16s %12s %12s %10s %9s  %s\n", "output", "shape", "max_abs_err", "max_rel_err", "cosine",
              "argmax", "result");
  for (const auto& r : reports) {
    const std::string argmax = std::to_string(r.argmax_same) + "/" + std::to_string(r.samples);
    std::printf("%-32s %-16s %12.4g %12.4g %10.6f %9s  %s\n", nn::printable(r.name).c_str(),
                nn::to_string(r.shape).c_str(), r.max_abs, r.max_rel, r.cosine, argmax.c_str(),
                r.ok ? "ok" : "MISMATCH");
  }
  std::fflush(stdout);
}

}  // namespace

void add_verify_options(CLI::App& command, ConvertOptions& options, VerifySettings& settings) {
  command
      .add_option_function<std::vector<std::string>>(
          "--verify",
          [&options](const std::vector<std::string>& given) {
            options.verify = true;
            for (const auto& f : given)
              if (!f.empty()) options.verify_inputs.push_back(f);
          },
          "Run source and result on the same inputs (.npy/.bin per data variable; none: random) and compare")
      ->expected(0, -1);
  command.add_option("--atol", settings.atol, "--verify: absolute tolerance")->capture_default_str();
  command.add_option("--rtol", settings.rtol, "--verify: relative tolerance")->capture_default_str();
  command.add_option("--verify-format", settings.format, "--verify report: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  command.add_option("--verify-seed", settings.seed, "--verify: seed of the random inputs")->capture_default_str();
}

void split_verify_arguments(std::vector<std::string>& files, std::vector<std::string>& verify_inputs) {
  std::vector<std::string> data, models;
  for (const auto& f : verify_inputs) (is_data_argument(f) ? data : models).push_back(f);
  files.insert(files.begin(), models.begin(), models.end());
  verify_inputs = data;
}

void verify_conversion(const nn::ir::Model& source, const ConvertOptions& o, const VerifySettings& s) {
  NN_CHECK_CODE(!source.executors.empty(), nn::ErrorCode::kUsage)
      << "convert --verify: '" << o.inputs.front() << "' has no executor to run";
  const nn::ir::Model converted = load_converted(o);
  NN_CHECK(!converted.executors.empty()) << "convert --verify: '" << o.output << "' has no executor to run";
  RunnerOptions ro;
  ro.batch_size = o.export_format == "NNP" || o.batch_size < 1 ? -1 : o.batch_size;
  ExecutorRunner source_runner = nn::with_context(
      "'" + o.inputs.front() + "'", [&] { return ExecutorRunner(source, source.executors.front(), ro); });
  ro.batch_size = source_runner.batch_size();
  ExecutorRunner converted_runner = nn::with_context(
      "'" + o.output + "'", [&] { return ExecutorRunner(converted, converted.executors.front(), ro); });
  const size_t n = source_runner.num_inputs();
  NN_CHECK_CODE(converted_runner.num_inputs() == n, nn::ErrorCode::kCheckFailed)
      << "convert --verify: the source has " << n << " input(s), '" << o.output << "' has "
      << converted_runner.num_inputs();
  const bool random_inputs = o.verify_inputs.empty();
  NN_CHECK_CODE(random_inputs || o.verify_inputs.size() == n, nn::ErrorCode::kUsage)
      << "convert --verify: the network has " << n << " data variable(s), but " << o.verify_inputs.size()
      << " input file(s) were given";
  std::mt19937 rng(s.seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (size_t i = 0; i < n; ++i) {
    const nn::Shape& shape = source_runner.input_shape(i);
    NN_CHECK_CODE(nn::shape_size(converted_runner.input_shape(i)) == nn::shape_size(shape),
                  nn::ErrorCode::kCheckFailed)
        << "convert --verify: input '" << source_runner.input_name(i) << "' is " << shape << " in the source but "
        << converted_runner.input_shape(i) << " in '" << o.output << "'";
    std::vector<float> values(size_t(nn::shape_size(shape)));
    if (random_inputs) {
      for (float& v : values) v = uniform(rng);
    } else {
      values = load_input(o.verify_inputs[i], source_runner.input_name(i), shape);
    }
    source_runner.set_input(i, values);
    converted_runner.set_input(i, values);
  }
  const std::vector<ExecutorOutput> expected = source_runner.run();
  const std::vector<ExecutorOutput> actual = converted_runner.run();
  NN_CHECK_CODE(expected.size() == actual.size(), nn::ErrorCode::kCheckFailed)
      << "convert --verify: the source has " << expected.size() << " output(s), '" << o.output << "' has "
      << actual.size();
  std::vector<OutputReport> reports;
  std::string failed;
  for (size_t j = 0; j < expected.size(); ++j) {
    reports.push_back(compare(expected[j], actual[j], s));
    if (!reports.back().ok) failed += (failed.empty() ? "'" : ", '") + reports.back().name + "'";
  }
  print_reports(reports, o, s, random_inputs);
  NN_CHECK_CODE(failed.empty(), nn::ErrorCode::kCheckFailed)
      << "convert --verify: '" << o.output << "' differs from '" << o.inputs.front() << "' beyond atol " << s.atol
      << " / rtol " << s.rtol << " in output(s) " << failed;
  NN_LOG_INFO << "convert --verify: " << expected.size() << " output(s) match within atol " << s.atol << " / rtol "
              << s.rtol;
}

}  // namespace nncli
