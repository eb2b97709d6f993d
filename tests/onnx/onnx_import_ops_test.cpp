// ONNX import of operators the node tests do not cover: LSTM/GRU in PyTorch's layouts against a reference,
// refusals with their messages, and a batch folded into another axis under a symbolic batch.
// Also: a file import, which frees initializer data as it reads it, gives the parameters of the whole proto.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "formats/onnx/import/onnx_importer.hpp"
#include "nn/core/error.hpp"
#include "onnx_run_util.hpp"

using namespace nn;

namespace {

struct Graph {
  ::onnx::ModelProto model;
  ::onnx::GraphProto* g;
  explicit Graph(int64_t opset) {
    model.set_ir_version(8);
    auto* o = model.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    g = model.mutable_graph();
    g->set_name("g");
  }
  // dims < 0 are symbolic ("batch").
  void input(const std::string& name, const std::vector<int64_t>& dims) {
    auto* in = g->add_input();
    in->set_name(name);
    auto* t = in->mutable_type()->mutable_tensor_type();
    t->set_elem_type(::onnx::TensorProto::FLOAT);
    for (int64_t d : dims) {
      auto* dim = t->mutable_shape()->add_dim();
      if (d < 0)
        dim->set_dim_param("batch");
      else
        dim->set_dim_value(d);
    }
  }
  void output(const std::string& name) { g->add_output()->set_name(name); }
  void init(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& v) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t->add_dims(d);
    for (float x : v) t->add_float_data(x);
  }
  void init_ints(const std::string& name, const std::vector<int64_t>& v) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::INT64);
    t->add_dims(int64_t(v.size()));
    for (int64_t x : v) t->add_int64_data(x);
  }
  ::onnx::NodeProto* node(const std::string& op, const std::vector<std::string>& in,
                          const std::vector<std::string>& out) {
    auto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(op + std::to_string(g->node_size()));
    for (const auto& s : in) n->add_input(s);
    for (const auto& s : out) n->add_output(s);
    return n;
  }
};

void attr(::onnx::NodeProto* n, const std::string& name, int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INT);
  a->set_i(v);
}
void attr(::onnx::NodeProto* n, const std::string& name, const std::string& v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::STRING);
  a->set_s(v);
}

std::vector<float> values(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = float(seed >> 8) / float(1 << 24) - 0.5f;
  }
  return v;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// ONNX LSTM (gates i, o, f, c) in double precision, layout 1: X (B, T, I), states (B, D, H), Y (B, T, D, H).
struct LstmRef {
  std::vector<double> y, h, c;
};
LstmRef lstm_reference(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& r,
                       const std::vector<float>& b, const std::vector<float>& h0, const std::vector<float>& c0,
                       int64_t B, int64_t T, int64_t I, int64_t H, int64_t D) {
  LstmRef out;
  out.y.assign(size_t(B * T * D * H), 0.0);
  out.h.assign(size_t(B * D * H), 0.0);
  out.c.assign(size_t(B * D * H), 0.0);
  for (int64_t d = 0; d < D; ++d)
    for (int64_t n = 0; n < B; ++n) {
      std::vector<double> h(static_cast<size_t>(H)), c(static_cast<size_t>(H));
      for (int64_t j = 0; j < H; ++j)
        h[size_t(j)] = h0[size_t((n * D + d) * H + j)], c[size_t(j)] = c0[size_t((n * D + d) * H + j)];
      for (int64_t s = 0; s < T; ++s) {
        const int64_t t = d == 0 ? s : T - 1 - s;
        std::vector<double> gate(size_t(4 * H));
        for (int64_t k = 0; k < 4 * H; ++k) {
          double acc = b[size_t(d * 8 * H + k)] + b[size_t(d * 8 * H + 4 * H + k)];
          for (int64_t i = 0; i < I; ++i)
            acc += x[size_t((n * T + t) * I + i)] * w[size_t((d * 4 * H + k) * I + i)];
          for (int64_t i = 0; i < H; ++i) acc += h[size_t(i)] * r[size_t((d * 4 * H + k) * H + i)];
          gate[size_t(k)] = acc;
        }
        for (int64_t j = 0; j < H; ++j) {
          const double ig = sigmoid(gate[size_t(j)]), og = sigmoid(gate[size_t(H + j)]);
          const double fg = sigmoid(gate[size_t(2 * H + j)]), cg = std::tanh(gate[size_t(3 * H + j)]);
          c[size_t(j)] = fg * c[size_t(j)] + ig * cg;
          h[size_t(j)] = og * std::tanh(c[size_t(j)]);
          out.y[size_t(((n * T + t) * D + d) * H + j)] = h[size_t(j)];
        }
      }
      for (int64_t j = 0; j < H; ++j)
        out.h[size_t((n * D + d) * H + j)] = h[size_t(j)], out.c[size_t((n * D + d) * H + j)] = c[size_t(j)];
    }
  return out;
}

void expect_close(const std::vector<float>& got, const std::vector<double>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << what << " element " << i;
}

}  // namespace

// Batch-first (layout=1), bidirectional, with initial states and bias: Y, Y_h and Y_c against the reference.
TEST(OnnxImportOps, LstmBatchFirstBidirectional) {
  const int64_t B = 2, T = 3, I = 4, H = 3, D = 2;
  Graph m(14);
  m.input("X", {B, T, I});
  const auto w = values(size_t(D * 4 * H * I), 1), r = values(size_t(D * 4 * H * H), 2),
             b = values(size_t(D * 8 * H), 3);
  const auto h0 = values(size_t(B * D * H), 4), c0 = values(size_t(B * D * H), 5);
  m.init("W", {D, 4 * H, I}, w);
  m.init("R", {D, 4 * H, H}, r);
  m.init("B", {D, 8 * H}, b);
  m.init("h0", {B, D, H}, h0);
  m.init("c0", {B, D, H}, c0);
  auto* n = m.node("LSTM", {"X", "W", "R", "B", "", "h0", "c0"}, {"Y", "Y_h", "Y_c"});
  attr(n, "hidden_size", H);
  attr(n, "direction", std::string("bidirectional"));
  attr(n, "layout", int64_t(1));
  for (const char* o : {"Y", "Y_h", "Y_c"}) m.output(o);
  const ir::Model model = formats::onnx::import_model_proto(m.model, ".");
  const auto x = values(size_t(B * T * I), 6);
  const auto got = onnx_test::run_model(model, {{{B, T, I}, x}});
  ASSERT_EQ(got.size(), 3u);
  const LstmRef want = lstm_reference(x, w, r, b, h0, c0, B, T, I, H, D);
  EXPECT_EQ(got[0].shape, Shape({B, T, D, H}));
  EXPECT_EQ(got[1].shape, Shape({B, D, H}));
  expect_close(got[0].values, want.y, "Y");
  expect_close(got[1].values, want.h, "Y_h");
  expect_close(got[2].values, want.c, "Y_c");
}

// direction=reverse without initial states or bias (PyTorch's default layout 0 is covered by the node tests).
TEST(OnnxImportOps, LstmReverseNoStates) {
  const int64_t B = 1, T = 4, I = 2, H = 2;
  Graph m(13);
  m.input("X", {T, B, I});
  const auto w = values(size_t(4 * H * I), 7), r = values(size_t(4 * H * H), 8);
  m.init("W", {1, 4 * H, I}, w);
  m.init("R", {1, 4 * H, H}, r);
  attr(m.node("LSTM", {"X", "W", "R"}, {"Y"}), "direction", std::string("reverse"));
  m.output("Y");
  const auto x = values(size_t(T * B * I), 9);
  const auto got = onnx_test::run_model(formats::onnx::import_model_proto(m.model, "."), {{{T, B, I}, x}});
  // The reference runs direction index 1 (reversed) of a bidirectional pair; layout 0 with B = 1 equals layout 1.
  std::vector<float> w2(w), r2(r);
  w2.insert(w2.begin(), w.begin(), w.end());
  r2.insert(r2.begin(), r.begin(), r.end());
  const LstmRef ref =
      lstm_reference(x, w2, r2, std::vector<float>(size_t(16 * H), 0.0f), std::vector<float>(size_t(2 * H), 0.0f),
                     std::vector<float>(size_t(2 * H), 0.0f), B, T, I, H, 2);
  std::vector<double> want;
  for (int64_t t = 0; t < T; ++t)
    for (int64_t j = 0; j < H; ++j) want.push_back(ref.y[size_t((t * 2 + 1) * H + j)]);
  ASSERT_EQ(got.size(), 1u);
  expect_close(got[0].values, want, "Y");
}

TEST(OnnxImportOps, RecurrentRefusalsNameTheReason) {
  auto refused = [](const std::string& op, int64_t lbr, const std::vector<int64_t>& lens) {
    Graph m(14);
    m.input("X", {3, 2, 4});
    const int64_t G = op == "GRU" ? 3 : 4;
    m.init("W", {1, G * 2, 4}, values(size_t(G * 8), 1));
    m.init("R", {1, G * 2, 2}, values(size_t(G * 4), 2));
    std::vector<std::string> in{"X", "W", "R", ""};
    if (!lens.empty()) {
      m.init_ints("lens", lens);
      in.push_back("lens");
    }
    auto* n = m.node(op, in, {"Y"});
    if (op == "GRU") attr(n, "linear_before_reset", lbr);
    m.output("Y");
    try {
      formats::onnx::import_model_proto(m.model, ".");
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kUnsupported) << e.what();
      return std::string(e.what());
    }
    return std::string("imported");
  };
  EXPECT_EQ(refused("GRU", 0, {}), "imported");  // unrolled over time
  EXPECT_NE(refused("LSTM", 0, {3, 2}).find("sequence_lens 2 shorter than the sequence length 3"),
            std::string::npos);
  EXPECT_EQ(refused("GRU", 1, {3, 3}), "imported");
}

TEST(OnnxImportOps, GatherElementsRankMismatchIsOneLine) {
  Graph m(13);
  m.input("X", {2, 3});
  m.init_ints("idx", {0, 1});
  attr(m.node("GatherElements", {"X", "idx"}, {"Y"}), "axis", int64_t(1));
  m.output("Y");
  try {
    formats::onnx::import_model_proto(m.model, ".");
    FAIL() << "imported";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "node 'GatherElements1' (GatherElements): indices (2,) and data (2, 3) must have the same rank"),
              std::string::npos)
        << e.what();
  }
}

// (batch, 3, 4) -> Reshape (-1, 4): the batch folded with the 3 rows stays symbolic (Reshape target -1).
TEST(OnnxImportOps, FoldedBatchStaysDynamic) {
  Graph m(13);
  m.input("X", {-1, 3, 4});
  m.init_ints("shape", {-1, 4});
  m.node("Reshape", {"X", "shape"}, {"flat"});
  m.node("Relu", {"flat"}, {"Y"});
  m.output("Y");
  const ir::Model model = formats::onnx::import_model_proto(m.model, ".");
  const ir::Network& net = model.networks.at(0);
  bool found = false;
  for (const auto& f : net.functions)
    if (f.type == "Reshape") {
      EXPECT_EQ(f.attrs.get_ints("shape", {}), std::vector<int64_t>({-1, 4}));
      found = true;
    }
  EXPECT_TRUE(found);
  for (const auto& v : net.variables)
    if (v.name == "X") EXPECT_EQ(v.shape, Shape({-1, 3, 4}));
  const auto got = onnx_test::run_model(model, {{{1, 3, 4}, values(12, 3)}});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].values.size(), 12u);
}

// Importing a file frees each initializer's data once read; with a symbolic batch the graph is walked twice,
// and only the second walk may free it. Either way the parameters are those of the proto kept whole.
TEST(OnnxImportOps, FileImportKeepsEveryInitializerOnceFreed) {
  for (const int64_t batch : {int64_t(-1), int64_t(2)}) {
    Graph m(13);
    m.input("X", {batch, 3});
    m.init("W", {3, 2}, values(6, 5));
    m.init("B", {2}, values(2, 6));
    m.node("MatMul", {"X", "W"}, {"XW"});
    m.node("Add", {"XW", "B"}, {"Y"});
    m.output("Y");
    const std::string path = testing::TempDir() + "initializers_freed.onnx";
    {
      std::ofstream out(path, std::ios::binary);
      ASSERT_TRUE(m.model.SerializeToOstream(&out));
    }
    const ir::Model whole = formats::onnx::import_model_proto(m.model, ".");
    const ir::Model from_file = formats::onnx::import_model(path);
    ASSERT_EQ(from_file.parameters.size(), whole.parameters.size()) << "batch " << batch;
    ASSERT_EQ(whole.parameters.size(), 2u);
    for (size_t i = 0; i < whole.parameters.size(); ++i) {
      EXPECT_EQ(from_file.parameters[i].name, whole.parameters[i].name);
      EXPECT_EQ(from_file.parameters[i].shape, whole.parameters[i].shape);
      EXPECT_EQ(from_file.parameters[i].data, whole.parameters[i].data) << whole.parameters[i].name;
    }
    const int64_t rows = batch < 0 ? 1 : batch;  // a symbolic batch runs at 1
    const auto got = onnx_test::run_model(from_file, {{{rows, 3}, values(size_t(rows * 3), 7)}});
    const auto want = onnx_test::run_model(whole, {{{rows, 3}, values(size_t(rows * 3), 7)}});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].values, want.at(0).values);
    std::remove(path.c_str());
  }
}
