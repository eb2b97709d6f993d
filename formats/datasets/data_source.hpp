// DataSource: a random-access set of samples, each a tuple of float arrays (one per dataset variable).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"

namespace nn::formats::datasets {

class DataSource {
 public:
  virtual ~DataSource() = default;
  virtual int64_t size() const = 0;
  // Variable (data_name) list in dataset order, and each variable's per-sample shape.
  virtual const std::vector<std::string>& variables() const = 0;
  virtual const std::vector<Shape>& shapes() const = 0;
  // Writes sample `index` into out[v] (shape_size(shapes()[v]) floats each). Safe to call from several
  // threads at once. Throws nn::Error naming the file (and line) at fault.
  virtual void load(int64_t index, const std::vector<float*>& out) const = 0;

  // NPY dtype a cache stores variable v in ("|u1" 8-bit images, "<u2" 16-bit, "<f8" CSV matrices, "<f4").
  virtual std::string storage_descr(int v) const { return "<f4"; }

  // Where variable v of sample `index` comes from, for messages: "train.csv:18: column 2 ('y')" for a
  // CSV, the cache file and position for a cache.
  virtual std::string sample_origin(int64_t index, int v) const {
    return "sample " + std::to_string(index) + ", variable '" + variables()[size_t(v)] + "'";
  }

  // Index of a variable, or -1.
  int find_variable(const std::string& name) const {
    const auto& v = variables();
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] == name) return int(i);
    return -1;
  }
};

}  // namespace nn::formats::datasets
