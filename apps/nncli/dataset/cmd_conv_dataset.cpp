// `nncli conv_dataset`: a CSV dataset (or a cache) to an nnabla cache directory
// (docs/command_line.md#dataset-tools, docs/datasets.md#cache-directories).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>

#include "command.hpp"
#include "common/input_file_check.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/datasets/cache_data_source.hpp"
#include "formats/datasets/csv_data_source.hpp"
#include "formats/datasets/csv_text.hpp"
#include "formats/datasets/npy.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/core/random.hpp"

namespace nncli {

namespace fs = std::filesystem;
namespace ds = nn::formats::datasets;

struct ConvDatasetOptions {
  bool force = false, shuffle = false, normalize = false;
  int threads = 1;
  std::string source, destination;
};

std::shared_ptr<ConvDatasetOptions> setup_conv_dataset(CLI::App& command) {
  auto o = std::make_shared<ConvDatasetOptions>();
  command.add_flag("-F,--force", o->force, "Overwrite an existing destination directory");
  command.add_flag("-S,--shuffle", o->shuffle, "Shuffle the samples (numpy RandomState(313))");
  command.add_flag("-N,--normalize", o->normalize, "Store images divided by 255 (65535 for 16-bit)");
  command.add_option("-t,--num_of_threads", o->threads, "Accepted; the cache is written by one thread")
      ->capture_default_str();
  command.add_option("source", o->source, "CSV dataset or .cache directory")->required()->check(existing_input());
  command.add_option("destination", o->destination, "Cache directory (created)")->required();
  return o;
}

namespace {

// numpy.random.RandomState(seed).permutation(n): the legacy shuffle over the same MT19937 stream,
// drawing masked 32-bit values until one is in range (n < 2^32 here).
std::vector<int64_t> numpy_permutation(int64_t n, uint32_t seed) {
  nn::RandomEngine rng{seed};
  std::vector<int64_t> p(size_t(std::max<int64_t>(n, 0)));
  for (int64_t i = 0; i < n; ++i) p[size_t(i)] = i;
  for (int64_t i = n - 1; i > 0; --i) {
    uint64_t mask = uint64_t(i);
    for (int s = 1; s <= 32; s *= 2) mask |= mask >> s;
    uint64_t j;
    do {
      j = uint64_t(rng()) & mask;
    } while (j > uint64_t(i));
    std::swap(p[size_t(i)], p[size_t(j)]);
  }
  return p;
}

// A source whose cache dtypes are overridden: normalised images become float64, as upstream stores them.
class StoredAs : public ds::DataSource {
 public:
  StoredAs(std::shared_ptr<const ds::DataSource> inner, std::vector<std::string> descrs)
      : inner_(std::move(inner)), descrs_(std::move(descrs)) {}
  int64_t size() const override { return inner_->size(); }
  const std::vector<std::string>& variables() const override { return inner_->variables(); }
  const std::vector<nn::Shape>& shapes() const override { return inner_->shapes(); }
  void load(int64_t index, const std::vector<float*>& out) const override { inner_->load(index, out); }
  std::string storage_descr(int v) const override { return descrs_[size_t(v)]; }

 private:
  std::shared_ptr<const ds::DataSource> inner_;
  std::vector<std::string> descrs_;
};

bool is_integer_descr(const std::string& d) { return d == "|u1" || d == "<u1" || d == "<u2" || d == ">u2"; }

// The dtypes a cache directory stores its variables in (from its first NPY file; float32 for HDF5).
std::vector<std::string> cache_descrs(const ds::CacheDataSource& cache) {
  std::vector<std::string> descrs(cache.variables().size(), "<f4");
  const fs::path index = fs::path(cache.dir()) / "cache_index.csv";
  if (!fs::exists(fs::path(cache.dir()) / "cache_info.csv") || !fs::exists(index)) return descrs;
  const auto records = ds::read_csv_file(index.string());
  if (records.empty() || records.front().cells.empty()) return descrs;
  const std::string first = (fs::path(cache.dir()) / records.front().cells[0]).string();
  const std::string bytes = nn::formats::read_file(first);
  size_t offset = 0;
  for (auto& d : descrs) d = ds::read_npy(bytes, offset, first).descr;
  return descrs;
}

// Empties or creates the destination directory (docs/command_line.md#dataset-tools).
void prepare_destination(const ConvDatasetOptions& o) {
  const std::string& d = o.destination;
  std::error_code ec;
  if (!fs::exists(d, ec)) {
    fs::create_directories(d, ec);
    NN_CHECK(!ec) << "'" << d << "': cannot create the destination directory: " << ec.message();
    return;
  }
  NN_CHECK(o.force) << "File or directory [" << d << "] is exists use `-F` option to overwrite it.";
  NN_CHECK(fs::is_directory(d, ec)) << "Cannot overwrite file [" << d << "] please delete it.";
  NN_LOG_INFO << "Overwrite destination [" << d << "].";
  for (const auto& e : fs::directory_iterator(d)) fs::remove_all(e.path());
}

}  // namespace

int run_conv_dataset(const ConvDatasetOptions& o) {
  NN_CHECK_CODE(o.threads > 0, nn::ErrorCode::kUsage)
      << "The numbers of threads [" << o.threads << "] must be positive integer.";
  if (o.threads > 1) {
    NN_LOG_DEBUG << "conv_dataset: -t " << o.threads << " accepted, one writer thread used";
  }
  const std::string ext = ds::lower_extension(o.source);
  const bool remote =
      o.source.rfind("http://", 0) == 0 || o.source.rfind("https://", 0) == 0 || o.source.rfind("s3://", 0) == 0;
  NN_CHECK(ext == ".csv" || ext == ".cache")
      << "'" << o.source << "': Command `conv_dataset` only supports CSV or CACHE as source.";
  NN_CHECK(!remote) << "'" << o.source << "': remote datasets are not supported, download it first";
  NN_CHECK(ext == ".csv" || ds::lower_extension(o.destination) == ".cache")
      << "'" << o.destination << "': Command `conv_dataset` only supports CACHE as destination.";
  NN_CHECK(fs::exists(o.source)) << "'" << o.source << "': cannot open: no such file or directory";
  // Refuse an existing destination before reading anything, then read, then replace the destination.
  if (fs::exists(o.destination) && !o.force)
    NN_FAIL(nn::ErrorCode::kInvalid) << "File or directory [" << o.destination
                                     << "] is exists use `-F` option to overwrite it.";

  std::shared_ptr<const ds::DataSource> source;
  std::vector<std::string> descrs;
  ds::CacheWriteOptions wo;
  if (ext == ".csv") {
    auto csv = ds::CsvDataSource::open(o.source, ds::CsvDatasetOptions{o.normalize});
    for (size_t v = 0; v < csv->variables().size(); ++v) descrs.push_back(csv->storage_descr(int(v)));
    wo.original_csv = o.source;
    source = csv;
  } else {
    auto cache = ds::CacheDataSource::open(o.source, ds::CacheDatasetOptions{o.normalize});
    descrs = cache_descrs(*cache);
    source = cache;
  }
  for (auto& d : descrs)
    if (o.normalize && is_integer_descr(d)) d = "<f8";
  if (o.shuffle) wo.order = numpy_permutation(source->size(), 313);

  prepare_destination(o);
  std::printf("Number of Data: %lld\n", static_cast<long long>(source->size()));
  std::printf("Shuffle:        %s\n", o.shuffle ? "True" : "False");
  std::printf("Normalize:      %s\n", o.normalize ? "True" : "False");
  std::fflush(stdout);
  ds::write_npy_cache(StoredAs(source, descrs), o.destination, wo);
  NN_LOG_INFO << "Wrote " << o.destination << " (" << source->size() << " samples)";
  return 0;
}

}  // namespace nncli
