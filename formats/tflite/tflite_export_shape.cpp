// TFLite export rules for axis functions: Reshape, Concatenate, Slice, Transpose, Softmax, reductions.
#include <algorithm>

#include "formats/tflite/tflite_exporter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::tflite_export {
namespace {

using tflite_io::BuiltinOp;

int position(const Perm& p, int64_t nnabla_axis) {
  return int(std::find(p.begin(), p.end(), int(nnabla_axis)) - p.begin());
}

void emit_reshape(Exporter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  int xt = e.in_order(x, identity_perm(e.shape(x).size()));
  const Shape& ys = e.shape(f.outputs.at(0));
  std::vector<int32_t> dims(ys.begin(), ys.end());
  int st = e.g().const_int32(e.fresh(f.name + "/shape"), {int64_t(dims.size())}, dims);
  int yt = e.define(f.outputs.at(0), identity_perm(ys.size()));
  tflite::ReshapeOptionsT o;
  o.new_shape = dims;
  tflite::BuiltinOptionsUnion opts;
  opts.Set(o);
  e.g().op(BuiltinOp::RESHAPE, {xt, st}, {yt}, std::move(opts));
}

void emit_concatenate(Exporter& e, const ir::Function& f) {
  const size_t rank = e.shape(f.inputs.at(0)).size();
  int64_t axis = f.attrs.get_int("axis", int64_t(rank) - 1);
  if (axis < 0) axis += int64_t(rank);
  Perm p = identity_perm(rank);  // the order of the first non-constant input
  for (const std::string& in : f.inputs)
    if (!e.is_parameter(in)) {
      p = e.value(in).perm;
      break;
    }
  std::vector<int> ins;
  for (const std::string& in : f.inputs) ins.push_back(e.in_order(in, p));
  int yt = e.define(f.outputs.at(0), p);
  tflite::ConcatenationOptionsT o;
  o.axis = position(p, axis);
  tflite::BuiltinOptionsUnion opts;
  opts.Set(o);
  e.g().op(BuiltinOp::CONCATENATION, ins, {yt}, std::move(opts));
}

void emit_slice(Exporter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);
  Value v = e.value(x);
  auto start = f.attrs.get_ints("start", {});
  auto stop = f.attrs.get_ints("stop", {});
  auto step = f.attrs.get_ints("step", {});
  NN_CHECK(start.size() == stop.size() && step.size() == start.size() && start.size() <= xs.size())
      << "start/stop/step must have the same length";
  const size_t lead = xs.size() - start.size();  // nnabla slices the last axes
  std::vector<int32_t> b(xs.size(), 0), en(xs.size()), st(xs.size(), 1);
  for (size_t i = 0; i < xs.size(); ++i) en[i] = int32_t(xs[i]);
  for (size_t i = 0; i < start.size(); ++i) {
    NN_CHECK(step[i] > 0) << "negative slice steps are not supported";
    b[lead + i] = int32_t(start[i]), en[lead + i] = int32_t(stop[i]), st[lead + i] = int32_t(step[i]);
  }
  // Axes that are not sliced (the batch among them) are masked: their full range at any size.
  std::vector<int32_t> pb(xs.size()), pe(xs.size()), ps(xs.size());
  int32_t whole = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const size_t a = size_t(v.perm[i]);
    pb[i] = b[a], pe[i] = en[a], ps[i] = st[a];
    if (a < lead) whole |= int32_t(1) << i, pb[i] = 0, pe[i] = 0;
  }
  const int64_t r = int64_t(xs.size());
  int bt = e.g().const_int32(e.fresh(f.name + "/begin"), {r}, pb);
  int et = e.g().const_int32(e.fresh(f.name + "/end"), {r}, pe);
  int stt = e.g().const_int32(e.fresh(f.name + "/strides"), {r}, ps);
  int yt = e.define(f.outputs.at(0), v.perm);
  tflite::StridedSliceOptionsT so;
  so.begin_mask = so.end_mask = whole;
  tflite::BuiltinOptionsUnion opts;
  opts.Set(so);
  e.g().op(BuiltinOp::STRIDED_SLICE, {v.tensor, bt, et, stt}, {yt}, std::move(opts));
}

void emit_transpose(Exporter& e, const ir::Function& f) {
  auto axes = f.attrs.get_ints("axes", {});
  const std::string& x = f.inputs.at(0);
  NN_CHECK(axes.size() == e.shape(x).size()) << "axes must list every axis";
  Value v = e.value(x);
  // Output axis i is input axis axes[i]: in TFLite, keep the input's order and just relabel when possible.
  Perm inv(axes.size());
  for (size_t i = 0; i < axes.size(); ++i) inv[size_t(axes[i])] = int(i);
  Perm relabeled(axes.size());  // the output's nnabla axis stored at each TFLite axis of the input tensor
  for (size_t i = 0; i < axes.size(); ++i) relabeled[i] = inv[size_t(v.perm[i])];
  if (is_identity(relabeled) || relabeled == channel_last_perm(relabeled.size())) {
    e.alias(f.outputs.at(0), Value{v.tensor, relabeled});
    return;
  }
  int t = e.in_order(x, identity_perm(axes.size()));
  std::vector<int32_t> p(axes.begin(), axes.end());
  int pt = e.g().const_int32(e.fresh(f.name + "/perm"), {int64_t(p.size())}, p);
  int yt = e.define(f.outputs.at(0), identity_perm(axes.size()));
  e.g().op(BuiltinOp::TRANSPOSE, {t, pt}, {yt}, tflite::BuiltinOptionsUnion{});
}

// Softmax and LogSoftmax work on the last TFLite axis: the tensor is reordered so that `axis` is last.
void emit_softmax(Exporter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const size_t rank = e.shape(x).size();
  int64_t axis = f.attrs.get_int("axis", int64_t(rank) - 1);
  if (axis < 0) axis += int64_t(rank);
  Perm p = e.value(x).perm;
  if (p.back() != axis) {
    p = identity_perm(rank);
    p.erase(p.begin() + axis);
    p.push_back(int(axis));
  }
  int xt = e.in_order(x, p);
  int yt = e.define(f.outputs.at(0), p);
  if (f.type == "LogSoftmax") {
    e.g().op(BuiltinOp::LOG_SOFTMAX, {xt}, {yt}, tflite::BuiltinOptionsUnion{});
    return;
  }
  tflite::SoftmaxOptionsT o;
  o.beta = 1.0f;
  tflite::BuiltinOptionsUnion opts;
  opts.Set(o);
  e.g().op(BuiltinOp::SOFTMAX, {xt}, {yt}, std::move(opts));
}

void emit_reduce(Exporter& e, const ir::Function& f, BuiltinOp op) {
  const std::string& x = f.inputs.at(0);
  const size_t rank = e.shape(x).size();
  Value v = e.value(x);
  std::vector<int64_t> all(rank);
  for (size_t i = 0; i < rank; ++i) all[i] = int64_t(i);
  auto axes = f.attrs.get_ints("axes", all);
  for (auto& a : axes) a = a < 0 ? a + int64_t(rank) : a;
  const bool keep = f.attrs.get_bool("keep_dims", false);
  std::vector<int32_t> ta;
  for (int64_t a : axes) ta.push_back(position(v.perm, a));
  std::sort(ta.begin(), ta.end());
  int at = e.g().const_int32(e.fresh(f.name + "/axes"), {int64_t(ta.size())}, ta);
  Perm out_perm = v.perm;
  if (!keep) {  // drop the reduced axes, renumbering the nnabla axes that remain
    Perm kept;
    for (int a : v.perm)
      if (std::find(axes.begin(), axes.end(), a) == axes.end()) kept.push_back(a);
    for (int& a : kept) {
      int below = 0;
      for (int64_t r : axes) below += r < a;
      a -= below;
    }
    out_perm = kept;
  }
  int yt = e.define(f.outputs.at(0), out_perm);
  tflite::ReducerOptionsT o;
  o.keep_dims = keep;
  tflite::BuiltinOptionsUnion opts;
  opts.Set(o);
  e.g().op(op, {v.tensor, at}, {yt}, std::move(opts));
}

// Pad (constant mode): PADV2 with the pairs of the last axes placed in the input's TFLite order.
void emit_pad(Exporter& e, const ir::Function& f) {
  NN_CHECK(f.attrs.get_string("mode", "constant") == "constant")
      << "mode '" << f.attrs.get_string("mode", "") << "' is not supported (constant is)";
  const std::string& x = f.inputs.at(0);
  const size_t rank = e.shape(x).size();
  auto pw = f.attrs.get_ints("pad_width", {});
  NN_CHECK(pw.size() % 2 == 0 && pw.size() / 2 <= rank) << "pad_width must hold pairs for the last axes";
  std::vector<int64_t> before(rank, 0), after(rank, 0);
  const size_t lead = rank - pw.size() / 2;
  for (size_t i = 0; i < pw.size() / 2; ++i) {
    NN_CHECK(pw[2 * i] >= 0 && pw[2 * i + 1] >= 0) << "negative pad widths are not supported";
    before[lead + i] = pw[2 * i], after[lead + i] = pw[2 * i + 1];
  }
  Value v = e.value(x);
  std::vector<int32_t> p;
  for (size_t i = 0; i < rank; ++i) {
    p.push_back(int32_t(before[size_t(v.perm[i])]));
    p.push_back(int32_t(after[size_t(v.perm[i])]));
  }
  int pt = e.g().const_int32(e.fresh(f.name + "/paddings"), {int64_t(rank), 2}, p);
  const float value = float(f.attrs.get_float("constant_value", 0.0));
  int yt = e.define(f.outputs.at(0), v.perm);
  if (value == 0.0f) {  // PAD: zeros (more runtimes know it than PADV2)
    e.g().op(BuiltinOp::PAD, {v.tensor, pt}, {yt}, {});
    return;
  }
  int cv = e.g().const_float(e.fresh(f.name + "/value"), {}, {value});
  e.g().op(BuiltinOp::PADV2, {v.tensor, pt, cv}, {yt}, {});
}

}  // namespace

void add_shape_rules(std::map<std::string, Rule>& rules) {
  rules["Reshape"] = emit_reshape;
  rules["Pad"] = emit_pad;
  rules["Concatenate"] = emit_concatenate;
  rules["Slice"] = emit_slice;
  rules["Transpose"] = emit_transpose;
  rules["Softmax"] = emit_softmax;
  rules["LogSoftmax"] = emit_softmax;
  rules["Mean"] = [](Exporter& e, const ir::Function& f) { emit_reduce(e, f, BuiltinOp::MEAN); };
  rules["Sum"] = [](Exporter& e, const ir::Function& f) { emit_reduce(e, f, BuiltinOp::SUM); };
  rules["Max"] = [](Exporter& e, const ir::Function& f) { emit_reduce(e, f, BuiltinOp::REDUCE_MAX); };
}

}  // namespace nn::formats::tflite_export
