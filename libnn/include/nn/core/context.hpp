// Context: ordered backend preference ("cudnn:half", "cuda:float", "cpu:float") and device id, as nnabla.
#pragma once
#include <string>
#include <vector>

namespace nn {

struct Backend {
  std::string name;         // "cpu", "cuda", "cudnn"
  std::string type_config;  // "float", "half"
};

struct Context {
  std::vector<std::string> backends{"cpu:float"};
  std::string array_class;
  int device_id = 0;

  std::vector<Backend> parsed_backends() const;  // "cudnn:half" -> {cudnn, half}; missing type -> float
  bool is_cpu_only() const;
  std::string to_string() const;  // "cudnn:half,cpu:float (device 0)"
};

Context cpu_context();
// Parses nnabla_cli's -C/--context value: "cpu", "cuda", "cudnn", "cudnn:half" or a comma list.
Context parse_context(const std::string& spec);

}  // namespace nn
