// ONNX node conformance: `onnx_node_check DIR` imports DIR/model.onnx, runs test_data_set_0 and compares
// (exit 0 pass, 1 fail, 77 skipped: an operator outside the import table); `--report ROOT OUT.md` writes
// the per-operator table of docs/onnx_conformance.md. Attribute-like inputs become initializers.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>

#include "formats/onnx/common/onnx_model_file.hpp"
#include "formats/onnx/import/onnx_importer.hpp"
#include "nn/core/error.hpp"
#include "onnx_run_util.hpp"

namespace fs = std::filesystem;
using namespace nn;

namespace {

enum class Outcome { kPass, kFail, kSkip };

// Inputs that real exporters write as initializers or Constant nodes (shapes, axes, pads, scales, bounds):
// the node tests feed them as graph inputs, so they are turned into initializers from test_data_set_0.
bool attribute_like_input(const std::string& op, int index) {
  static const std::map<std::string, std::vector<int>> kTable = {{"Reshape", {1}},
                                                                 {"Unsqueeze", {1}},
                                                                 {"Squeeze", {1}},
                                                                 {"Slice", {1, 2, 3, 4}},
                                                                 {"Split", {1}},
                                                                 {"Pad", {1, 2}},
                                                                 {"Tile", {1}},
                                                                 {"Expand", {1}},
                                                                 {"Clip", {1, 2}},
                                                                 {"TopK", {1}},
                                                                 {"Resize", {1, 2, 3}},
                                                                 {"Upsample", {1}},
                                                                 {"ConstantOfShape", {0}},
                                                                 {"Range", {0, 1, 2}},
                                                                 {"OneHot", {1, 2}},
                                                                 {"CumSum", {1}},
                                                                 {"Trilu", {1}},
                                                                 {"Dropout", {1, 2}},
                                                                 {"NonMaxSuppression", {2, 3, 4}},
                                                                 {"BlackmanWindow", {0}},
                                                                 {"HannWindow", {0}},
                                                                 {"HammingWindow", {0}},
                                                                 {"CenterCropPad", {1}},
                                                                 {"ReduceSum", {1}},
                                                                 {"ReduceMean", {1}},
                                                                 {"ReduceMax", {1}},
                                                                 {"ReduceMin", {1}},
                                                                 {"ReduceProd", {1}},
                                                                 {"ReduceL1", {1}},
                                                                 {"ReduceL2", {1}},
                                                                 {"ReduceLogSum", {1}},
                                                                 {"ReduceLogSumExp", {1}},
                                                                 {"ReduceSumSquare", {1}}};
  auto it = kTable.find(op);
  return it != kTable.end() && std::find(it->second.begin(), it->second.end(), index) != it->second.end();
}

// Node tests whose expected outputs disagree with the operator's definition (reported as skipped, with why).
std::string known_bad_data(const std::string& test) {
  for (const char* w : {"test_hannwindow", "test_hammingwindow", "test_blackmanwindow"})
    if (test.rfind(w, 0) == 0)
      return "test data computed with pi = 3.1415 (onnx 1.12's test generator), not the definition's pi";
  return "";
}

// Absolute tolerance per test: 1e-5, except where the expected outputs are printed with fewer digits.
double absolute_tolerance(const std::string& test) {
  if (test.rfind("test_roialign", 0) == 0) return 1e-4;  // expected values written with 4 decimals
  return 1e-5;
}

Outcome check_dir(const fs::path& dir, std::string* op, std::string* why) {
  const std::string model_path = (dir / "model.onnx").string();
  try {
    ::onnx::ModelProto proto = formats::onnx::load_model_proto(model_path);
    *op = proto.graph().node_size() ? proto.graph().node(0).op_type() : "?";
    *why = known_bad_data(dir.filename().string());
    if (!why->empty()) return Outcome::kSkip;
    const std::vector<std::string> missing = formats::onnx::unsupported_operators(proto);
    if (!missing.empty()) {
      *why = "unsupported operator " + missing.front();
      return Outcome::kSkip;
    }
    std::set<std::string> constant_inputs;
    bool all_tensors = true;  // sequences/optionals: left for the importer to refuse
    for (const auto& info : proto.graph().input()) all_tensors = all_tensors && info.type().has_tensor_type();
    for (const auto& node : proto.graph().node())
      for (int i = 0; i < node.input_size(); ++i)
        if (attribute_like_input(node.op_type(), i)) constant_inputs.insert(node.input(i));
    std::vector<onnx_test::Array> inputs, expected;
    const fs::path data = dir / "test_data_set_0";
    ::onnx::GraphProto* graph = proto.mutable_graph();
    ::onnx::GraphProto kept_inputs;
    for (int i = 0; i < graph->input_size(); ++i) {
      const fs::path file = data / ("input_" + std::to_string(i) + ".pb");
      if (!fs::exists(file)) break;
      const std::string& name = graph->input(i).name();
      if (all_tensors && constant_inputs.count(name)) {
        ::onnx::TensorProto t = onnx_test::read_tensor_proto(file.string());
        t.set_name(name);
        *graph->add_initializer() = t;
      } else {
        *kept_inputs.add_input() = graph->input(i);
        if (!all_tensors) continue;
        ::onnx::TensorProto t = onnx_test::read_tensor_proto(file.string());
        // onnx 1.12 stores BFLOAT16 test inputs as their UINT16 bit patterns.
        if (graph->input(i).type().tensor_type().elem_type() == ::onnx::TensorProto::BFLOAT16 &&
            t.data_type() == ::onnx::TensorProto::UINT16)
          t.set_data_type(::onnx::TensorProto::BFLOAT16);
        formats::onnx::TensorData d = formats::onnx::read_tensor(t, ".");
        inputs.push_back({d.shape, d.values});
      }
    }
    if (all_tensors && !constant_inputs.empty()) graph->mutable_input()->Swap(kept_inputs.mutable_input());
    ir::Model model = formats::onnx::import_model_proto(proto, dir.string());
    for (size_t i = 0; fs::exists(data / ("output_" + std::to_string(i) + ".pb")); ++i)
      expected.push_back(onnx_test::read_tensor_file((data / ("output_" + std::to_string(i) + ".pb")).string()));
    std::vector<onnx_test::Array> got = onnx_test::run_model(model, inputs);
    if (got.size() < expected.size()) {
      *why = "fewer outputs than expected";
      return Outcome::kFail;
    }
    for (size_t j = 0; j < expected.size(); ++j) {
      if (got[j].shape != expected[j].shape && shape_size(got[j].shape) != shape_size(expected[j].shape)) {
        *why = "output " + std::to_string(j) + ": shape " + to_string(got[j].shape) + " != expected " +
               to_string(expected[j].shape);
        return Outcome::kFail;
      }
      const std::string diff =
          onnx_test::compare(got[j].values, expected[j].values, 1e-4, absolute_tolerance(dir.filename().string()));
      if (!diff.empty()) {
        *why = "output " + std::to_string(j) + ": " + diff;
        return Outcome::kFail;
      }
    }
    return Outcome::kPass;
  } catch (const Error& e) {
    *why = e.what();
    return e.code() == ErrorCode::kUnsupported ? Outcome::kSkip : Outcome::kFail;
  } catch (const std::exception& e) {
    *why = e.what();
    return Outcome::kFail;
  }
}

// The reason of a skip without the node/tensor names that differ between tests ("node 'y' (Cast): ..." -> "Cast:
// ...").
std::string skip_reason(const std::string& why) {
  std::string r = std::regex_replace(why, std::regex("node '[^']*' \\(([A-Za-z]+)\\): "), "$1: ");
  r = std::regex_replace(r, std::regex("tensor '[^']*'"), "tensor X");
  std::replace(r.begin(), r.end(), '|', '/');
  return r;
}

int report(const fs::path& root, const std::string& out_path) {
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(root))
    if (fs::exists(entry.path() / "model.onnx")) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  struct Counts {
    int pass = 0, fail = 0, skip = 0;
    std::vector<std::string> failed;
    std::map<std::string, int> why_skipped;
  };
  std::map<std::string, Counts> by_op;
  int pass = 0, fail = 0, skip = 0;
  for (const auto& d : dirs) {
    std::string op, why;
    const Outcome o = check_dir(d, &op, &why);
    Counts& c = by_op[op];
    if (o == Outcome::kPass) ++c.pass, ++pass;
    if (o == Outcome::kFail) ++c.fail, ++fail, c.failed.push_back(d.filename().string() + " (" + why + ")");
    if (o == Outcome::kSkip) ++c.skip, ++skip, ++c.why_skipped[skip_reason(why)];
  }
  std::ofstream out(out_path);
  out << "# ONNX import conformance\n\n"
      << "Generated by `onnx_node_check --report " << root.string() << "` (tests/onnx): every node test of the\n"
      << "Debian `libonnx-testdata` package is imported with nncli's ONNX importer, run on the CPU engine with\n"
      << "`test_data_set_0` and compared with `|got - want| <= 1e-5 + 1e-4 |want|`. \"Skipped\" means the model\n"
      << "uses an operator, attribute or data type outside the import table (the importer refuses it with exit\n"
      << "code 3). Each directory is also a CTest (`ctest -L formats -R onnx_node`).\n\n"
      << "**Total: " << pass << " passed, " << fail << " failed, " << skip << " skipped of " << dirs.size()
      << " node tests.**\n\n| first operator | passed | failed | skipped |\n|---|---|---|---|\n";
  for (const auto& [op, c] : by_op)
    out << "| " << op << " | " << c.pass << " | " << c.fail << " | " << c.skip << " |\n";
  out << "\n## Why the others are skipped\n\n| first operator | tests | reason |\n|---|---|---|\n";
  for (const auto& [op, c] : by_op)
    for (const auto& [reason, n] : c.why_skipped) out << "| " << op << " | " << n << " | " << reason << " |\n";
  out << "\n## Failures\n\n";
  for (const auto& [op, c] : by_op)
    for (const auto& f : c.failed) out << "* " << f << "\n";
  std::cout << pass << " passed, " << fail << " failed, " << skip << " skipped\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--report") return report(argv[2], argv[3]);
  if (argc != 2) {
    std::cerr << "usage: onnx_node_check DIR | --report ROOT OUT.md\n";
    return 2;
  }
  std::string op, why;
  const Outcome o = check_dir(argv[1], &op, &why);
  if (o == Outcome::kPass) return 0;
  std::cout << (o == Outcome::kSkip ? "SKIPPED: " : "FAILED: ") << why << "\n";
  return o == Outcome::kSkip ? 77 : 1;
}
