// parameter.h5 reading and writing.
#include "formats/nnp/parameter_h5.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

#include "formats/common/atomic_file.hpp"
#include "formats/common/hdf5_file.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::nnp {

namespace {

std::vector<ir::Parameter> read_parameters(hid_t file, const ParameterShapeCheck& check) {
  struct Found {
    int64_t index;
    std::string path;
  };
  std::vector<Found> found;
  for (const auto& entry : h5::list_objects(file)) {
    if (!entry.is_dataset) continue;
    h5::Handle dset(h5::open_dataset(file, entry.path));
    NN_CHECK(dset.valid()) << "dataset '" << entry.path << "': " << h5::last_error();
    int64_t index = std::numeric_limits<int64_t>::max();  // no index: after the indexed ones, by path
    h5::read_int_attribute(dset.get(), "index", &index);
    found.push_back({index, entry.path});
  }
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    return a.index != b.index ? a.index < b.index : a.path < b.path;
  });
  std::vector<ir::Parameter> params;
  params.reserve(found.size());
  for (const auto& f : found) {
    const std::string what = "parameter '" + f.path + "'";
    h5::Handle dset(h5::open_dataset(file, f.path));
    NN_CHECK(dset.valid()) << what << ": " << h5::last_error();
    ir::Parameter p;
    p.name = f.path;
    p.shape = h5::dataset_shape(dset.get());
    if (check) with_context(what, [&] { check(p.name, p.shape); });
    p.data = h5::read_dataset_as_float(dset.get(), what);
    int64_t need_grad = 0;
    h5::read_int_attribute(dset.get(), "need_grad", &need_grad);
    p.need_grad = need_grad != 0;
    params.push_back(std::move(p));
  }
  return params;
}

}  // namespace

std::vector<ir::Parameter> read_h5_parameters(std::string_view bytes, const std::string& display_name,
                                              const ParameterShapeCheck& check) {
  return h5::read_guarded(display_name, [&] {
    h5::QuietErrors quiet;
    h5::Handle file = h5::open_image(bytes, display_name);  // names the file in its errors
    return with_context("'" + display_name + "'", [&] { return read_parameters(file.get(), check); });
  });
}

std::vector<ir::Parameter> read_h5_parameters_file(const std::string& path, const ParameterShapeCheck& check) {
  std::string bytes = read_file(path);
  return read_h5_parameters(bytes, path, check);
}

std::string h5_parameters_image(const std::vector<ir::Parameter>& parameters) {
  h5::QuietErrors quiet;
  h5::Handle file = h5::create_memory_file();
  std::set<std::string> seen;
  int64_t index = 0;
  for (const auto& p : parameters) {
    NN_CHECK(!p.name.empty()) << "a parameter has an empty name";
    NN_CHECK(seen.insert(p.name).second) << "parameter '" << p.name << "' appears twice";
    NN_CHECK(shape_size(p.shape) == int64_t(p.data.size()))
        << "parameter '" << p.name << "': shape " << to_string(p.shape) << " does not match its " << p.data.size()
        << " values";
    h5::Handle dset = h5::write_float_dataset(file.get(), p.name, p.shape, p.data.data());
    h5::write_bool_attribute(dset.get(), "need_grad", p.need_grad);
    h5::write_int64_attribute(dset.get(), "index", index++);
  }
  return h5::image(file.get());
}

}  // namespace nn::formats::nnp
