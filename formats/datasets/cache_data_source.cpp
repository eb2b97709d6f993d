// CacheDataSource (NPY and HDF5 cache directories) and the NPY cache writer.
#include "formats/datasets/cache_data_source.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "formats/common/contained_path.hpp"
#include "formats/common/hdf5_file.hpp"
#include "formats/datasets/csv_text.hpp"
#include "formats/datasets/npy.hpp"
#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"
#include "nn/core/first_exception.hpp"

namespace nn::formats::datasets {

namespace fs = std::filesystem;

namespace {

// Divisor that normalises stored integers of this dtype (0: none).
double normalizer_for(const std::string& descr, bool normalize) {
  if (!normalize) return 0.0;
  if (descr == "|u1" || descr == "<u1") return 255.0;
  if (descr == "<u2" || descr == ">u2") return 65535.0;
  return 0.0;
}

// An HDF5 dataset's data as float, and whether its stored type is an unsigned 8/16-bit integer.
std::vector<float> read_h5_variable(hid_t file, const std::string& name, const std::string& path, Shape* shape,
                                    std::string* descr) {
  h5::Handle ds(h5::open_dataset(file, name));
  NN_CHECK(ds.valid()) << "'" << path << "': cache file lacks dataset '" << name << "'";
  *shape = h5::dataset_shape(ds.get());
  h5::Handle type(h5::lib().H5Dget_type(ds.get()));
  *descr = "<f4";
  if (h5::lib().H5Tget_class(type.get()) == H5T_INTEGER && h5::lib().H5Tget_sign(type.get()) == H5T_SGN_NONE) {
    size_t bytes = h5::lib().H5Tget_size(type.get());
    if (bytes == 1) *descr = "|u1";
    if (bytes == 2) *descr = "<u2";
  }
  return h5::read_dataset_as_float(ds.get(), "'" + path + "' dataset '" + name + "'");
}

}  // namespace

std::shared_ptr<CacheDataSource> CacheDataSource::open(const std::string& dir,
                                                       const CacheDatasetOptions& options) {
  std::shared_ptr<CacheDataSource> src(new CacheDataSource());
  src->dir_ = dir;
  src->options_ = options;
  NN_CHECK(fs::is_directory(dir)) << "'" << dir << "': cache directory not found";
  const std::string info = dir + "/cache_info.csv";
  src->h5_ = !fs::exists(info);
  if (!src->h5_) {
    for (const CsvRecord& r : read_csv_file(info)) src->variables_.push_back(r.cells.at(0));
  }
  const std::string index = dir + "/cache_index.csv";
  if (fs::exists(index)) {
    for (const CsvRecord& r : read_csv_file(index)) {
      NN_CHECK(r.cells.size() >= 2) << index << ":" << r.line << ": expected '<file name>,<count>'";
      double n;
      NN_CHECK(parse_python_float(r.cells[1], n) && n >= 0)
          << index << ":" << r.line << ": bad count '" << r.cells[1] << "'";
      const std::string file = resolve_inside(dir, r.cells[0], index + ":" + std::to_string(r.line));
      src->files_.push_back(CacheFile{file, int64_t(n), 0});
    }
  } else {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
      if (lower_extension(e.path().string()) == ".h5") names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    for (const auto& n : names) src->files_.push_back(CacheFile{dir + "/" + n, -1, 0});
  }
  NN_CHECK(!src->files_.empty()) << "'" << dir << "': the cache has no data files";
  // Shapes (and counts of unindexed h5 files) from the files themselves.
  for (size_t f = 0; f < src->files_.size(); ++f) {
    CacheFile& cf = src->files_[f];
    if (f == 0 || cf.count < 0) {
      std::vector<Shape> shapes;
      if (src->h5_) {
        std::tie(src->variables_, shapes) = h5::read_guarded(cf.path, [&] {
          h5::QuietErrors quiet;
          h5::Handle file = h5::open_file(cf.path);
          std::vector<std::string> variables = src->variables_;
          if (variables.empty()) {
            for (const auto& e : h5::list_objects(file.get()))
              if (e.is_dataset) variables.push_back(e.path);
          }
          NN_CHECK(!variables.empty()) << "'" << cf.path << "': the cache file holds no datasets";
          std::vector<Shape> found;
          for (const auto& v : variables) {
            h5::Handle ds = h5::open_dataset(file.get(), v);
            NN_CHECK(ds.valid()) << "'" << cf.path << "': cache file lacks dataset '" << v << "'";
            found.push_back(h5::dataset_shape(ds.get()));
          }
          return std::make_pair(variables, found);
        });
      } else {
        std::string bytes = read_file(cf.path);
        size_t offset = 0;
        for (size_t v = 0; v < src->variables_.size(); ++v)
          shapes.push_back(read_npy(bytes, offset, cf.path).shape);
      }
      for (const Shape& s : shapes)
        NN_CHECK(!s.empty()) << "'" << cf.path << "': a cache record has no sample axis";
      if (cf.count < 0) cf.count = shapes.front()[0];
      if (f == 0) {
        for (const Shape& s : shapes) src->shapes_.emplace_back(s.begin() + 1, s.end());
      }
    }
    cf.first = src->total_;
    src->total_ += cf.count;
  }
  return src;
}

std::shared_ptr<const CacheDataSource::Loaded> CacheDataSource::load_file(size_t f) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = recent_.find(f);
    if (it != recent_.end()) return it->second;
  }
  const CacheFile& cf = files_[f];
  auto loaded = std::make_shared<Loaded>();
  std::string bytes = h5_ ? std::string() : read_file(cf.path);
  size_t offset = 0;
  for (size_t v = 0; v < variables_.size(); ++v) {
    Shape expected{cf.count};
    expected.insert(expected.end(), shapes_[v].begin(), shapes_[v].end());
    Shape shape;
    std::string descr;
    std::vector<float> values;
    if (h5_) {
      h5::QuietErrors quiet;
      h5::Handle file = h5::open_file(cf.path);
      values = read_h5_variable(file.get(), variables_[v], cf.path, &shape, &descr);
    } else {
      NpyArray a = read_npy(bytes, offset, cf.path);
      shape = a.shape;
      descr = a.descr;
      values.assign(a.values.begin(), a.values.end());
    }
    NN_CHECK(shape == expected) << "'" << cf.path << "': variable '" << variables_[v] << "' has shape "
                                << to_string(shape) << ", expected " << to_string(expected);
    if (double divisor = normalizer_for(descr, options_.normalize); divisor > 0)
      for (float& x : values) x = float(double(x) * (1.0 / divisor));
    loaded->data.push_back(std::move(values));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (recent_.size() >= 4) recent_.erase(recent_.begin());
  recent_[f] = loaded;
  return loaded;
}

void CacheDataSource::load(int64_t index, const std::vector<float*>& out) const {
  NN_INTERNAL_CHECK(index >= 0 && index < total_ && out.size() == variables_.size()) << "cache index " << index;
  auto it = std::upper_bound(files_.begin(), files_.end(), index,
                             [](int64_t i, const CacheFile& f) { return i < f.first; });
  size_t f = size_t(it - files_.begin()) - 1;
  auto loaded = load_file(f);
  int64_t local = index - files_[f].first;
  for (size_t v = 0; v < variables_.size(); ++v) {
    int64_t n = shape_size(shapes_[v]);
    std::memcpy(out[v], loaded->data[v].data() + local * n, size_t(n) * sizeof(float));
  }
}

std::vector<int64_t> CacheDataSource::original_order() const {
  std::vector<int64_t> order(static_cast<size_t>(total_));
  for (int64_t i = 0; i < total_; ++i) order[size_t(i)] = i;
  const std::string path = dir_ + "/order.csv";
  if (!fs::exists(path)) return order;
  for (const CsvRecord& r : read_csv_file(path)) {
    double pos, orig;
    NN_CHECK(r.cells.size() >= 2 && parse_python_float(r.cells[0], pos) && parse_python_float(r.cells[1], orig))
        << path << ":" << r.line << ": expected '<cache position>,<original row>'";
    if (pos >= 0 && pos < double(total_)) order[size_t(pos)] = int64_t(orig);
  }
  return order;
}

std::string CacheDataSource::sample_origin(int64_t index, int v) const {
  NN_INTERNAL_CHECK(index >= 0 && index < total_) << "cache position " << index;
  const CacheFile* file = &files_.front();
  for (const CacheFile& f : files_)
    if (f.first <= index) file = &f;
  std::ostringstream os;
  os << file->path << ": sample " << index - file->first << ", variable '" << variables_[size_t(v)] << "'";
  const std::string original = dir_ + "/original.csv";
  std::error_code ec;
  if (fs::exists(original, ec) && fs::exists(dir_ + "/order.csv", ec)) {
    try {
      os << " (data row " << original_order()[size_t(index)] + 1 << " of " << original << ")";
    } catch (const Error&) {
      // A damaged order.csv: the cache position alone still locates the sample.
    }
  }
  return os.str();
}

void write_npy_cache(const DataSource& source, const std::string& dir, const CacheWriteOptions& options) {
  fs::create_directories(dir);
  const int64_t n = source.size();
  std::vector<int64_t> order = options.order;
  if (order.empty()) {
    for (int64_t i = 0; i < n; ++i) order.push_back(i);
  }
  NN_CHECK(int64_t(order.size()) == n) << "write_npy_cache: order has " << order.size() << " entries for " << n
                                       << " samples";
  const int64_t per_file = std::max<int64_t>(1, options.samples_per_file);
  const auto& vars = source.variables();
  const auto& shapes = source.shapes();
  std::vector<int64_t> sizes(vars.size());
  for (size_t v = 0; v < vars.size(); ++v) sizes[v] = shape_size(shapes[v]);
  // One file's samples, loaded (images decoded) into their rows, written as one NPY file (atomically and
  // checked: a full disk is an error, not 0 bytes). `threads_inside`: load the samples on all threads.
  auto write_one = [&](int64_t start, int64_t end, bool threads_inside) {
    std::vector<std::vector<float>> rows(vars.size());
    for (size_t v = 0; v < vars.size(); ++v) rows[v].resize(size_t((end - start) * sizes[v]));
    FirstException failure;
#pragma omp parallel for schedule(dynamic) if (threads_inside)
    for (int64_t p = start; p < end; ++p) {
      std::vector<float*> ptrs(vars.size());
      for (size_t v = 0; v < vars.size(); ++v) ptrs[v] = rows[v].data() + (p - start) * sizes[v];
      failure.run([&] { source.load(order[size_t(p)], ptrs); });
    }
    failure.rethrow();
    std::string bytes;
    for (size_t v = 0; v < vars.size(); ++v) {
      Shape s{end - start};
      s.insert(s.end(), shapes[v].begin(), shapes[v].end());
      bytes += npy_record(source.storage_descr(int(v)), s, std::vector<double>(rows[v].begin(), rows[v].end()));
    }
    char name[64];
    std::snprintf(name, sizeof(name), "cache_%08lld_%08lld.npy", (long long)start, (long long)(end - 1));
    write_file_atomic(dir + "/" + name, bytes);
    return std::string(name) + "," + std::to_string(end - start) + "\n";
  };
  // Several files: each thread loads and writes whole files in turn (nothing waits for a serial write), on
  // twice as many threads as cores, since each file's fsync blocks its thread (0.5 ms here): 10,000 PNG
  // images took 0.09 s instead of 0.10. One file: its samples load on all threads.
  const int64_t files = (n + per_file - 1) / per_file;
  std::vector<std::string> lines(static_cast<size_t>(files));
  FirstException failure;
#pragma omp parallel for schedule(dynamic) if (files > 1) num_threads(2 * omp_get_max_threads())
  for (int64_t f = 0; f < files; ++f)
    failure.run([&] { lines[size_t(f)] = write_one(f * per_file, std::min(n, (f + 1) * per_file), files == 1); });
  failure.rethrow();
  std::string index;
  for (const auto& line : lines) index += line;
  std::string info, order_text;
  for (const auto& v : vars) info += v + "\n";
  for (int64_t p = 0; p < n; ++p) order_text += std::to_string(p) + "," + std::to_string(order[size_t(p)]) + "\n";
  write_file_atomic(dir + "/cache_info.csv", info);
  write_file_atomic(dir + "/order.csv", order_text);
  if (!options.original_csv.empty()) write_file_atomic(dir + "/original.csv", read_file(options.original_csv));
  write_file_atomic(dir + "/cache_index.csv", index);  // last: a cache with an index is complete
}

}  // namespace nn::formats::datasets
