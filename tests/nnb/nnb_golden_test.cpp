// NNB writer and reader against upstream: every golden upstream.nnb / upstream_v3.nnb, nnablart dumps.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "formats/nnb/nnb_dump.hpp"
#include "formats/nnb/nnb_file.hpp"
#include "formats/nnb/nnb_function_table.hpp"
#include "formats/nnb/nnb_writer.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "formats/passes/expand_repeat.hpp"
#include "nnb_test_util.hpp"

namespace nn::formats::nnb::test {

namespace {

// Structural differences between two decoded networks ("" when equivalent).
// Buffer assignment is compared apart (`buffers`): layouts may legitimately differ (golden README §4).
std::string compare(const NnbNetwork& a, const NnbNetwork& b, bool* buffers_differ = nullptr) {
  std::ostringstream d;
  if (a.version != b.version || a.api_level != b.api_level) d << "version/api_level; ";
  bool buffers = a.buffers != b.buffers;
  if (a.inputs != b.inputs || a.outputs != b.outputs) d << "inputs/outputs; ";
  if (a.variables.size() != b.variables.size()) return d.str() + "variable count";
  for (size_t v = 0; v < a.variables.size(); ++v) {
    const auto &x = a.variables[v], &y = b.variables[v];
    if (x.shape != y.shape || x.type != y.type || x.fp_pos != y.fp_pos || x.has_data() != y.has_data())
      d << "variable " << v << " header; ";
    else if (x.has_data() && x.data != y.data)
      d << "variable " << v << " data; ";
    else if (!x.has_data() && x.data_index != y.data_index)
      buffers = true;
  }
  if (buffers_differ)
    *buffers_differ = buffers;
  else if (buffers)
    d << "buffers; ";
  if (a.functions.size() != b.functions.size()) return d.str() + "function count";
  for (size_t k = 0; k < a.functions.size(); ++k) {
    const auto &f = a.functions[k], &g = b.functions[k];
    if (f.type != g.type || f.impl != g.impl || f.inputs != g.inputs || f.outputs != g.outputs) {
      d << "function " << k << " (id " << f.type << " vs " << g.type << "); ";
      continue;
    }
    bool same = f.args.size() == g.args.size();
    for (size_t i = 0; same && i < f.args.size(); ++i)
      same = f.args[i].code == g.args[i].code && f.args[i].i == g.args[i].i && f.args[i].list == g.args[i].list &&
             (f.args[i].f == g.args[i].f || (f.args[i].f != f.args[i].f && g.args[i].f != g.args[i].f));
    if (!same) d << "function " << k << " arguments; ";
  }
  return d.str();
}

NnbNetwork export_case(const GoldenCase& c, uint32_t version) {
  ir::Model model = expand_model(load_model(c.sources));
  NnbExportOptions o;
  o.version = version;
  return build_nnb(model, o);
}

}  // namespace

TEST(NnbGolden, EveryUpstreamNnbMatchesOurExport) {
  const auto cases = golden_nnb_cases();
  if (cases.empty()) GTEST_SKIP() << "no golden testdata";
  EXPECT_GE(cases.size(), 90u);
  int matched = 0, buffer_plans_differ = 0, batch_matmul_buffers = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.dir.string());
    for (uint32_t version : {2u, 3u}) {
      const auto file = c.dir / (version == 2 ? "upstream.nnb" : "upstream_v3.nnb");
      if (!std::filesystem::exists(file)) continue;
      const NnbNetwork upstream = read_nnb(read_bytes(file), file.string());
      NnbNetwork ours;
      try {
        ours = export_case(c, version);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "export failed: " << e.what();
        continue;
      }
      bool buffers_differ = false;
      const std::string diff = compare(ours, upstream, &buffers_differ);
      EXPECT_EQ(diff, "") << file;
      matched += diff.empty() && !buffers_differ;
      // A BatchMatmul output gets a buffer of its own (nnabla-c-runtime accumulates into it): a deliberate
      // difference from upstream's plan, which lets it reuse a dirty buffer.
      const bool has_batch_matmul =
          std::any_of(ours.functions.begin(), ours.functions.end(), [](const NnbFunction& f) {
            const FunctionIdEntry* e = function_by_id(f.type);
            return e && e->type == "BatchMatmul";
          });
      (has_batch_matmul ? batch_matmul_buffers : buffer_plans_differ) += buffers_differ;
      // Our serialization decodes to the same network.
      EXPECT_EQ(compare(read_nnb(serialize_nnb(ours), "ours"), ours), "");
    }
  }
  std::printf(
      "NNB golden: %d exports identical to upstream, %d differ only in buffer sharing, %d in the "
      "BatchMatmul output buffer\n",
      matched, buffer_plans_differ, batch_matmul_buffers);
  EXPECT_LE(buffer_plans_differ, 8);  // the unrolled loop networks (recurrent, Elman, GRU, LSTM)
}

TEST(NnbGolden, DumpMatchesNnablart) {
  const auto cases = golden_nnb_cases();
  if (cases.empty()) GTEST_SKIP() << "no golden testdata";
  for (const auto& c : cases) {
    if (!std::filesystem::exists(c.dir / "nnablart_dump.txt")) continue;
    SCOPED_TRACE(c.dir.string());
    EXPECT_EQ(dump_nnb(read_nnb(read_bytes(c.dir / "upstream.nnb"), "upstream.nnb")),
              read_bytes(c.dir / "nnablart_dump.txt"));
  }
}

TEST(NnbGolden, ShippedNnbFilesDumpAsNnablart) {
  const auto root = testdata_dir() / "nnb";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "no testdata";
  int count = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".nnb") continue;
    const auto rel = std::filesystem::relative(e.path(), root).string();
    std::string golden_name = rel;
    for (auto& ch : golden_name)
      if (ch == '.') ch = '_';
    const auto golden = testdata_dir() / "golden" / "nnb" / golden_name / "nnablart_dump.txt";
    SCOPED_TRACE(rel);
    const NnbNetwork n = read_nnb(read_bytes(e.path()), rel);
    if (rel.find("Chap10") != std::string::npos) {
      EXPECT_EQ(n.warnings.size(), 1u);  // garbage api_level
    }
    if (std::filesystem::exists(golden)) {
      EXPECT_EQ(dump_nnb(n), read_bytes(golden));
      ++count;
    }
  }
  EXPECT_GE(count, 7);
}

}  // namespace nn::formats::nnb::test
