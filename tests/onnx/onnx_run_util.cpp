// Running imported ONNX models on libnn for the conformance and golden tests.
#include "onnx_run_util.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "formats/onnx/common/onnx_model_file.hpp"
#include "nn/core/error.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ir/graph_builder.hpp"

namespace nn::onnx_test {

std::vector<Array> run_model(const ir::Model& model, const std::vector<Array>& inputs) {
  const ir::Executor& exec = model.executors.at(0);
  const ir::Network& network = *model.find_network(exec.network_name);
  ir::ParameterStore params;
  params.load(model.parameters);
  ir::BuildOptions options;
  options.batch_size = 1;
  ir::BuiltNetwork built = ir::build_network(network, params, options);
  NN_CHECK(inputs.size() == exec.data_variable.size())
      << inputs.size() << " inputs given, the model has " << exec.data_variable.size();
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto it = built.variables.find(exec.data_variable[i].variable_name);
    if (it == built.variables.end()) continue;  // an input no function reads
    VariablePtr v = it->second;
    NN_CHECK(v->size() == int64_t(inputs[i].values.size())) << "input " << i << " has " << inputs[i].values.size()
                                                            << " values, the variable " << to_string(v->shape());
    std::copy(inputs[i].values.begin(), inputs[i].values.end(), v->data()->cast<float>(true));
  }
  std::vector<VariablePtr> outs;
  for (const auto& o : exec.output_variable) outs.push_back(built.get(o.variable_name));
  forward_all(outs);
  std::vector<Array> result;
  for (const auto& v : outs) result.push_back({v->shape(), v->data()->to_vector()});
  return result;
}

::onnx::TensorProto read_tensor_proto(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  NN_CHECK(in.good()) << "cannot open " << path;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  ::onnx::TensorProto t;
  NN_CHECK(t.ParseFromString(bytes.str())) << path << ": not a TensorProto";
  return t;
}

Array read_tensor_file(const std::string& path) {
  const ::onnx::TensorProto t = read_tensor_proto(path);
  formats::onnx::TensorData d = formats::onnx::read_tensor(t, ".");
  return {d.shape, d.values};
}

std::vector<float> read_raw_floats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  NN_CHECK(in.good()) << "cannot open " << path;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  const std::string s = bytes.str();
  std::vector<float> v(s.size() / 4);
  std::memcpy(v.data(), s.data(), v.size() * 4);
  return v;
}

std::string compare(const std::vector<float>& got, const std::vector<float>& want, double rtol, double atol) {
  if (got.size() != want.size())
    return "size " + std::to_string(got.size()) + " != expected " + std::to_string(want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const double a = got[i], b = want[i];
    if (std::isnan(a) && std::isnan(b)) continue;
    if (std::isinf(b) && a == b) continue;
    if (!(std::fabs(a - b) <= atol + rtol * std::fabs(b))) {
      std::ostringstream os;
      os << "element " << i << ": got " << a << ", expected " << b;
      return os.str();
    }
  }
  return "";
}

}  // namespace nn::onnx_test
