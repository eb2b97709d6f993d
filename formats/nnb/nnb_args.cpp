// NNB argument codec: nnabla types to argcode letters, string arguments to their index in a fixed list.
#include "formats/nnb/nnb_args.hpp"

#include <map>

#include "formats/nnb/nnb_function_table.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::formats::nnb {

namespace {

const std::map<std::string, std::vector<std::string>>& choice_table() {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"Shift.border_mode", {"nearest", "reflect"}},
      {"RandomShift.border_mode", {"nearest", "reflect", "constant"}},
      {"Pad.mode", {"constant", "reflect", "repeat"}},
      {"Interpolate.mode", {"nearest", "linear"}},
      {"FusedConvolution.nonlinearity", {"identity", "relu", "sigmoid", "tanh", "leaky_relu", "elu", "relu6"}},
      {"FusedConvolution.pad_mode", {"constant", "reflect", "repeat"}},
      {"RNN.nonlinearity", {"tanh", "relu"}},
      {"FusedBatchNormalization.nonlinearity", {"relu"}},
      {"SyncBatchNormalization.group", {"world"}},
      {"ONNXResize.mode", {"nearest", "linear", "cubic"}},
      {"ONNXResize.coordinate_transformation_mode",
       {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"}},
      {"ONNXResize.nearest_mode", {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}},
      {"STFT.window_type", {"hanning", "hamming", "rectangular"}},
      {"STFT.pad_mode", {"constant", "reflect"}},
      {"ISTFT.window_type", {"hanning", "hamming", "rectangular"}},
      {"ISTFT.pad_mode", {"constant", "reflect"}},
      {"WarpByGrid.mode", {"linear", "nearest"}},
      {"WarpByGrid.padding_mode", {"zero", "repeat", "reflect"}},
      {"INQAffine.selection_algorithm", {"largest_abs", "random"}},
      {"INQConvolution.selection_algorithm", {"largest_abs", "random"}},
      {"QuantizeLinear.round_mode", {"HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN"}},
      {"BitShift.direction", {"LEFT", "RIGHT"}},
  };
  return table;
}

// The value of an argument: given, else the schema default, else proto3's zero value.
AttrValue value_of(const ArgSpec& spec, const Attrs& attrs) {
  if (const AttrValue* v = attrs.find(spec.name)) return *v;
  if (spec.default_value) return *spec.default_value;
  switch (spec.type) {
    case AttrType::kInt: return int64_t(0);
    case AttrType::kFloat:
    case AttrType::kDouble: return 0.0;
    case AttrType::kBool: return false;
    case AttrType::kString: return std::string();
    case AttrType::kFloats: return std::vector<double>{};
    default: return std::vector<int64_t>{};
  }
}

}  // namespace

std::string argument_code(AttrType type) {
  switch (type) {
    case AttrType::kInt:
    case AttrType::kString: return "i";
    case AttrType::kFloat:
    case AttrType::kDouble: return "f";
    case AttrType::kBool: return "B";
    case AttrType::kShape:
    case AttrType::kInts: return "iI";
    case AttrType::kFloats: return "fF";
    case AttrType::kCommunicator: return "C";
  }
  return "?";
}

std::string argument_codes(const std::string& type) {
  std::string codes;
  for (const ArgSpec& a : OpRegistry::instance().get(type).args) codes += argument_code(a.type);
  return codes;
}

const std::vector<std::string>& string_choices(const std::string& type, const std::string& arg) {
  static const std::vector<std::string> none;
  auto it = choice_table().find(type + "." + arg);
  return it == choice_table().end() ? none : it->second;
}

std::vector<NnbArgument> encode_arguments(const std::string& type, const std::string& argcode, const Attrs& attrs,
                                          int level) {
  const OpSchema& schema = OpRegistry::instance().get(type);
  const std::vector<std::string> codes = split_argcode(argcode);
  const std::string current = argument_codes(type);
  NN_CHECK_CODE(!(schema.args.empty() && !codes.empty()), ErrorCode::kUnsupported)
      << type << "_" << argcode << " is not supported by API Level:" << level << ".";
  std::vector<NnbArgument> out;
  for (size_t k = 0; k < schema.args.size(); ++k) {
    const ArgSpec& spec = schema.args[k];
    if (k >= codes.size()) {
      NN_LOG_VERBOSE << type << "." << spec.name << " is omitted for lower API Level:" << level;
      continue;
    }
    NN_CHECK_CODE(codes[k] == argument_code(spec.type), ErrorCode::kUnsupported)
        << type << "_" << argcode << " is not supported by API Level:" << level << ". (nnabla has " << type << "_"
        << current << ")";
    NN_CHECK_CODE(codes[k] != "fF" && codes[k] != "C", ErrorCode::kUnsupported)
        << type << "." << spec.name << ": argument type " << attr_type_name(spec.type)
        << " cannot be stored in NNB";
    const AttrValue v = value_of(spec, attrs);
    NnbArgument arg;
    arg.code = codes[k];
    if (spec.type == AttrType::kString) {
      const auto& choices = string_choices(type, spec.name);
      const std::string& s = std::get<std::string>(v);
      size_t index = 0;
      while (index < choices.size() && choices[index] != s) ++index;
      NN_CHECK_CODE(index < choices.size(), ErrorCode::kUnsupported)
          << type << "." << spec.name << ": value '" << s << "' has no NNB encoding";
      arg.i = int64_t(index);
    } else if (spec.type == AttrType::kBool) {
      arg.i = std::get<bool>(v) ? 1 : 0;
    } else if (spec.type == AttrType::kInt) {
      arg.i = std::get<int64_t>(v);
    } else if (spec.type == AttrType::kFloat || spec.type == AttrType::kDouble) {
      arg.f = float(std::get<double>(v));
    } else {
      for (int64_t x : std::get<std::vector<int64_t>>(v)) arg.list.push_back(int32_t(x));
    }
    out.push_back(std::move(arg));
  }
  return out;
}

std::vector<std::string> argument_names(const std::string& type, size_t count) {
  std::vector<std::string> names;
  const OpSchema* schema = OpRegistry::instance().find(type);
  for (size_t k = 0; k < count; ++k)
    names.push_back(schema && k < schema->args.size() ? schema->args[k].name : "arg" + std::to_string(k));
  return names;
}

Attrs decode_arguments(const std::string& type, const std::vector<NnbArgument>& args) {
  Attrs attrs;
  const OpSchema* schema = OpRegistry::instance().find(type);
  if (schema == nullptr) return attrs;
  for (size_t k = 0; k < args.size() && k < schema->args.size(); ++k) {
    const ArgSpec& spec = schema->args[k];
    const NnbArgument& a = args[k];
    switch (spec.type) {
      case AttrType::kInt: attrs.set(spec.name, a.i); break;
      case AttrType::kFloat:
      case AttrType::kDouble: attrs.set(spec.name, double(a.f)); break;
      case AttrType::kBool: attrs.set(spec.name, a.i != 0); break;
      case AttrType::kString: {
        const auto& choices = string_choices(type, spec.name);
        NN_CHECK(a.i >= 0 && size_t(a.i) < choices.size())
            << type << "." << spec.name << ": string index " << a.i << " is out of range";
        attrs.set(spec.name, choices[size_t(a.i)]);
        break;
      }
      case AttrType::kShape:
      case AttrType::kInts: attrs.set(spec.name, std::vector<int64_t>(a.list.begin(), a.list.end())); break;
      default: break;
    }
  }
  return attrs;
}

}  // namespace nn::formats::nnb
