// The CSRC plan (the NNB writer's buffer sharing and parameter preprocessing at float32) and text helpers.
#include "formats/csrc/csrc_plan.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>

#include "formats/nnb/nnb_writer.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nn::formats::csrc {

CsrcPlan make_plan(const nn::ir::Model& model, int64_t batch_size) {
  NN_CHECK(!model.executors.empty()) << "CSRC export needs an executor; the model has none";
  CsrcPlan plan;
  plan.executor = &model.executors.front();
  plan.network = model.find_network(plan.executor->network_name);
  NN_CHECK(plan.network != nullptr) << "executor '" << plan.executor->name << "' names missing network '"
                                    << plan.executor->network_name << "'";
  plan.batch_size = batch_size;
  if (batch_size < 0) {
    plan.batch_size = plan.network->batch_size;
    NN_LOG_INFO << "CSRC: Using batch size from input file.";
  }
  // Settings, -T and --api do not apply: float32 everywhere, the newest function table, element counts.
  nn::formats::nnb::NnbExportOptions options;
  options.version = 2;
  options.batch_size = plan.batch_size;
  options.truncate_binary_weights = false;
  plan.nnb = nn::formats::nnb::build_nnb(model, options);
  plan.name = plan.network->name;
  plan.symbol = c_identifier(plan.name);
  plan.prefix = "nnablart_" + lower(plan.symbol);
  for (size_t v = 0; v < plan.network->variables.size(); ++v)
    if (plan.network->variables[v].type == "Parameter") plan.parameters.push_back(v);
  for (const auto& g : plan.executor->generator_variable) plan.generators.insert(g.variable_name);
  return plan;
}

std::string python_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific).ptr;
  const std::string text(buf, end);  // "-2.6461100578308105e-01"
  const size_t e = text.find('e');
  std::string mantissa = text.substr(0, e);
  const int exponent = std::stoi(text.substr(e + 1));
  const bool negative = !mantissa.empty() && mantissa[0] == '-';
  std::string digits;
  for (char c : mantissa)
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      if (digits.size() < size_t(exponent) + 1) digits.resize(size_t(exponent) + 1, '0');
      const std::string whole = digits.substr(0, size_t(exponent) + 1),
                        fraction = digits.substr(size_t(exponent) + 1);
      out += whole + "." + (fraction.empty() ? "0" : fraction);
    } else {
      out += "0." + std::string(size_t(-exponent - 1), '0') + digits;
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  const int magnitude = std::abs(exponent);
  out +=
      std::string("e") + (exponent < 0 ? "-" : "+") + (magnitude < 10 ? "0" : "") + std::to_string(magnitude);
  return out;
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return char(std::toupper(c)); });
  return text;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return text;
}

std::string snake_of(const std::string& type) {
  static const std::map<std::string, std::string> names = {
#define NN_OP(Type, snake) {#Type, #snake},
#include "nn/ops/ops.def"
#undef NN_OP
  };
  auto it = names.find(type);
  return it == names.end() ? "" : it->second;
}

std::string c_identifier(const std::string& name) {
  std::string out;
  for (unsigned char c : name) out += std::isalnum(c) ? char(c) : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
  return out;
}

int64_t element_count_of(const CsrcPlan& plan, size_t variable) {
  return nn::formats::nnb::element_count(plan.nnb.variables[variable].shape);
}

const char* license_banner() {
  return "// Copyright (c) 2017 Sony Corporation. All Rights Reserved.\n"
         "//\n"
         "// Licensed under the Apache License, Version 2.0 (the \"License\");\n"
         "// you may not use this file except in compliance with the License.\n"
         "// You may obtain a copy of the License at\n"
         "//\n"
         "//     http://www.apache.org/licenses/LICENSE-2.0\n"
         "//\n"
         "// Unless required by applicable law or agreed to in writing, software\n"
         "// distributed under the License is distributed on an \"AS IS\" BASIS,\n"
         "// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.\n"
         "// See the License for the specific language governing permissions and\n"
         "// limitations under the License.\n"
         "\n"
         "// *WARNING*\n"
         "// THIS FILE IS AUTO-GENERATED BY CODE GENERATOR.\n"
         "// PLEASE DO NOT EDIT THIS FILE BY HAND!\n";
}

}  // namespace nn::formats::csrc
