// FreeDims and ShapeTemplate: an ONNX import's integers fitted as multilinear functions of the free input dims.
#include "shape_template.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "formats/nnp/nnp_writer.hpp"

namespace nncli {

FreeDims::FreeDims(const std::vector<nn::formats::onnx::GraphInput>& inputs) {
  std::map<std::string, int> named;
  for (const auto& input : inputs) {
    fixed_.push_back(input.dims);
    auto& atoms = atom_.emplace_back(input.dims.size(), -1);
    for (size_t axis = 0; axis < input.dims.size(); ++axis) {
      if (input.dims[axis] >= 0) continue;
      const std::string& name = axis < input.dim_names.size() ? input.dim_names[axis] : std::string();
      if (name.empty()) {
        atoms[axis] = int(count_++);
        continue;
      }
      auto [it, added] = named.emplace(name, int(count_));
      if (added) ++count_;
      atoms[axis] = it->second;
    }
  }
}

std::optional<std::vector<int64_t>> FreeDims::values(const std::vector<nn::Shape>& shapes) const {
  if (shapes.size() != fixed_.size()) return std::nullopt;
  std::vector<int64_t> values(count_, -1);
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (shapes[i].size() != fixed_[i].size()) return std::nullopt;
    for (size_t axis = 0; axis < shapes[i].size(); ++axis) {
      const int64_t d = shapes[i][axis];
      const int atom = atom_[i][axis];
      if (atom < 0) {
        if (d != fixed_[i][axis]) return std::nullopt;
        continue;
      }
      int64_t& v = values[size_t(atom)];
      if (d < 1 || (v >= 0 && v != d)) return std::nullopt;
      v = d;
    }
  }
  return values;
}

std::vector<nn::Shape> FreeDims::shapes(const std::vector<int64_t>& values) const {
  std::vector<nn::Shape> shapes = fixed_;
  for (size_t i = 0; i < shapes.size(); ++i)
    for (size_t axis = 0; axis < shapes[i].size(); ++axis)
      if (atom_[i][axis] >= 0) shapes[i][axis] = values[size_t(atom_[i][axis])];
  return shapes;
}

namespace {

// Every integer of a model's networks and parameter shapes, in one fixed order: a network's batch size, its
// variables' dims, its functions' integer arguments (element by element), then the parameters' dims.
template <class F>
void for_each_integer(nn::ir::Model& model, F&& visit) {
  for (auto& network : model.networks) {
    visit(network.batch_size);
    for (auto& v : network.variables)
      for (auto& d : v.shape) visit(d);
    for (auto& f : network.functions)
      for (const auto& entry : f.attrs.values()) {
        // The argument's own value in this (non-const) model, so that a visit may set it.
        auto& value = const_cast<nn::AttrValue&>(entry.second);
        if (auto* i = std::get_if<int64_t>(&value)) visit(*i);
        if (auto* list = std::get_if<std::vector<int64_t>>(&value))
          for (auto& d : *list) visit(d);
      }
  }
  for (auto& p : model.parameters)
    for (auto& d : p.shape) visit(d);
}

std::vector<int64_t> integers_of(nn::ir::Model& model) {
  std::vector<int64_t> all;
  for_each_integer(model, [&](int64_t& v) { all.push_back(v); });
  return all;
}

// The model as text with every integer 0 and no parameter data: equal for two imports that differ in integers
// only.
std::string shape_free_text(nn::ir::Model model) {
  for_each_integer(model, [](int64_t& v) { v = 0; });
  return nn::formats::model_to_nntxt(model, false);
}

// The parameters of `a` whose shape or values differ in `b` (added to `names`, once each); false when the two
// lists do not name the same parameters.
bool parameter_differences(const nn::ir::Model& a, const nn::ir::Model& b, std::vector<std::string>& names) {
  if (a.parameters.size() != b.parameters.size()) return false;
  for (size_t k = 0; k < a.parameters.size(); ++k) {
    const auto &p = a.parameters[k], &q = b.parameters[k];
    if (p.name != q.name) return false;
    if (p.shape != q.shape || p.data.size() != q.data.size() ||
        std::memcmp(p.data.data(), q.data.data(), p.data.size() * sizeof(float)) != 0)
      if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
  }
  return true;
}

// The multilinear polynomial over atoms shifted by base, with `coefficients` by subset mask, at `values`.
int64_t evaluate(const std::vector<int64_t>& coefficients, const std::vector<int64_t>& base,
                 const std::vector<int64_t>& values) {
  int64_t sum = 0;
  for (size_t mask = 0; mask < coefficients.size(); ++mask) {
    if (coefficients[mask] == 0) continue;
    int64_t term = coefficients[mask];
    for (size_t j = 0; j < base.size(); ++j)
      if (mask >> j & 1) term *= values[j] - base[j];
    sum += term;
  }
  return sum;
}

}  // namespace

std::vector<std::vector<int64_t>> ShapeTemplate::sample_points(const std::vector<int64_t>& at) {
  std::vector<std::vector<int64_t>> points;
  for (size_t mask = 0; mask < (size_t(1) << at.size()); ++mask) {
    auto& p = points.emplace_back(at);
    for (size_t j = 0; j < at.size(); ++j) p[j] += int64_t(mask >> j & 1);
  }
  auto& check = points.emplace_back(at);
  for (size_t j = 0; j < at.size(); ++j) check[j] += 3 + 2 * int64_t(j);
  return points;
}

std::optional<ShapeTemplate> ShapeTemplate::learn(const std::vector<std::vector<int64_t>>& points,
                                                  std::vector<nn::ir::Model> imports, std::string* why,
                                                  std::vector<std::string>* following) {
  const size_t corners = imports.empty() ? 0 : imports.size() - 1;
  if (points.size() != imports.size() || corners != size_t(1) << points[0].size()) {
    *why = "the imports are not those of the sample points";
    return std::nullopt;
  }
  const std::string text = shape_free_text(imports[0]);
  std::vector<std::vector<int64_t>> integers;
  std::vector<std::string> differing;
  for (size_t k = 0; k < imports.size(); ++k) {
    if (k > 0 &&
        (shape_free_text(imports[k]) != text || !parameter_differences(imports[0], imports[k], differing))) {
      *why = "the imports differ in more than sizes";
      return std::nullopt;
    }
    integers.push_back(integers_of(imports[k]));
  }
  if (!differing.empty()) {
    *why = "parameter '" + differing[0] + "'" + (differing.size() > 1 ? " and others follow" : " follows") +
           " the input shapes";
    if (following) *following = std::move(differing);
    return std::nullopt;
  }
  ShapeTemplate t;
  t.base_ = points[0];
  for (size_t i = 0; i < integers[0].size(); ++i) {
    bool constant = true;
    for (const auto& values : integers) constant = constant && values[i] == integers[0][i];
    if (constant) continue;
    // Moebius inversion over the corners: corner `mask` has atom j at base + 1 where bit j is set.
    Slot slot{i, std::vector<int64_t>(corners, 0)};
    for (size_t mask = 0; mask < corners; ++mask)
      for (size_t sub = mask;; sub = (sub - 1) & mask) {
        const bool odd = (__builtin_popcountll(mask) - __builtin_popcountll(sub)) & 1;
        slot.coefficients[mask] += odd ? -integers[sub][i] : integers[sub][i];
        if (sub == 0) break;
      }
    if (evaluate(slot.coefficients, t.base_, points.back()) != integers.back()[i]) {
      *why = "a size is not a multilinear function of the free dims (the check import differs)";
      return std::nullopt;
    }
    t.slots_.push_back(std::move(slot));
  }
  t.skeleton_ = std::make_unique<nn::ir::Model>(std::move(imports[0]));
  for (auto& p : t.skeleton_->parameters) std::vector<float>().swap(p.data);
  size_t index = 0, next = 0;
  for_each_integer(*t.skeleton_, [&](int64_t& v) {
    if (next < t.slots_.size() && t.slots_[next].index == index) {
      t.places_.push_back(&v);
      ++next;
    }
    ++index;
  });
  return t;
}

const nn::ir::Model& ShapeTemplate::at(const std::vector<int64_t>& values) {
  for (size_t k = 0; k < slots_.size(); ++k) *places_[k] = evaluate(slots_[k].coefficients, base_, values);
  return *skeleton_;
}

}  // namespace nncli
