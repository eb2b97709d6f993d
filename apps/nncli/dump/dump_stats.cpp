// Cost estimates per function from declared shapes.
#include "dump/dump_stats.hpp"

#include <set>

#include "nn/core/error.hpp"

namespace nncli {

namespace {

int64_t product(const nn::Shape& s, size_t begin = 0) { return nn::shape_size(s, begin, s.size()); }

bool is_one_of(const std::string& type, std::initializer_list<const char*> types) {
  for (const char* t : types)
    if (type == t) return true;
  return false;
}

struct Shapes {
  std::vector<nn::Shape> in, out;
};

// Multiply-accumulates of the matrix-style functions; 0 for others.
int64_t function_macs(const nn::ir::Function& f, const Shapes& s) {
  if (s.in.size() < 2 || s.out.empty()) return 0;
  const int64_t out_elems = product(s.out[0]);
  const nn::Shape& w = s.in[1];
  if (w.empty()) return 0;
  if (is_one_of(f.type, {"Affine", "BinaryConnectAffine", "BinaryWeightAffine"})) return out_elems * w[0];
  if (is_one_of(f.type, {"Convolution", "BinaryConnectConvolution", "BinaryWeightConvolution",
                         "DepthwiseConvolution", "FusedConvolution"}))
    return out_elems * product(w, 1);
  if (is_one_of(f.type, {"Deconvolution", "DepthwiseDeconvolution"})) return product(s.in[0]) * product(w, 1);
  if (f.type == "BatchMatmul") {
    const nn::Shape& a = s.in[0];
    if (a.size() < 2) return 0;
    const bool transpose_a = f.attrs.get_bool("transpose_a", false);
    return out_elems * (transpose_a ? a[a.size() - 2] : a.back());
  }
  return 0;
}

int64_t function_flops(const nn::ir::Function& f, const Shapes& s, int64_t macs) {
  const int64_t out_elems = s.out.empty() ? 0 : product(s.out[0]);
  const int64_t in_elems = s.in.empty() ? 0 : product(s.in[0]);
  if (macs > 0) return 2 * macs + (s.in.size() > 2 ? out_elems : 0);  // + bias
  if (is_one_of(f.type, {"MaxPooling", "AveragePooling", "SumPooling"})) {
    int64_t kernel = 1;
    for (int64_t k : f.attrs.get_ints("kernel", {})) kernel *= k;
    return out_elems * kernel;
  }
  if (is_one_of(f.type, {"GlobalAveragePooling", "Sum", "Mean", "Max", "Min", "Prod", "Softmax", "LogSoftmax"}))
    return std::max(in_elems, out_elems);
  if (is_one_of(f.type, {"BatchNormalization", "FusedBatchNormalization", "LayerNormalization"}))
    return 2 * out_elems;
  if (is_one_of(f.type, {"Reshape", "Identity", "Transpose", "Slice", "Concatenate", "Split", "Stack", "Broadcast",
                         "BroadcastTo", "Tile", "Pad", "Flip"}))
    return 0;  // data movement only
  return out_elems;
}

}  // namespace

NetworkStats network_stats(const nn::ir::Network& network, int64_t batch_size) {
  NetworkStats stats;
  stats.name = network.name;
  stats.batch_size = batch_size;
  auto shape_of = [&](const std::string& name) {
    const nn::ir::Variable* v = network.find_variable(name);
    nn::Shape s = v ? v->shape : nn::Shape{};
    for (auto& d : s)
      if (d < 0) d = batch_size;
    return s;
  };
  std::set<std::string> counted_params;
  for (const auto& v : network.variables)
    if (v.type != "Parameter") stats.activation_bytes += product(shape_of(v.name)) * 4;
  for (const auto& f : network.functions) {
    FunctionStats fs;
    fs.type = f.type;
    fs.name = f.name;
    Shapes shapes;
    for (const auto& in : f.inputs) {
      shapes.in.push_back(shape_of(in));
      const nn::ir::Variable* v = network.find_variable(in);
      if (v && v->type == "Parameter") {
        fs.parameters += product(shapes.in.back());
        if (counted_params.insert(in).second) stats.parameters += product(shapes.in.back());
      }
    }
    for (const auto& out : f.outputs) {
      shapes.out.push_back(shape_of(out));
      fs.output_bytes += product(shapes.out.back()) * 4;
    }
    fs.macs = function_macs(f, shapes);
    fs.flops = function_flops(f, shapes, fs.macs);
    stats.macs += fs.macs;
    stats.flops += fs.flops;
    stats.functions.push_back(std::move(fs));
  }
  return stats;
}

}  // namespace nncli
