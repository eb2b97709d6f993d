// Runs one op's forward directly (for random ops whose outputs are checked by statistics, not a reference).
#pragma once
#include <string>
#include <vector>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

namespace nn::test {

struct Forwarded {
  std::vector<Shape> shapes;
  std::vector<std::vector<float>> outputs;
};

// A set-up function instance that can run forward repeatedly (each run draws new random numbers).
class ForwardRunner {
 public:
  ForwardRunner(const std::string& type, const Attrs& attrs, const std::vector<RefArray>& inputs) {
    f_ = OpRegistry::instance().create(type, attrs, cpu_context());
    std::vector<Shape> shapes;
    for (const auto& a : inputs) {
      auto v = Variable::create(a.shape, true);
      float* p = v->data()->cast<float>(true);
      for (size_t i = 0; i < a.data.size(); ++i) p[i] = float(a.data[i]);
      in_.push_back(v);
      raw_in_.push_back(v.get());
      shapes.push_back(a.shape);
    }
    for (int i = 0; i < f_->num_outputs(shapes); ++i) {
      out_.push_back(Variable::create());
      raw_out_.push_back(out_.back().get());
    }
    f_->setup(raw_in_, raw_out_);
  }
  Forwarded run() {
    f_->forward(raw_in_, raw_out_);
    Forwarded r;
    for (auto& o : out_) {
      r.shapes.push_back(o->shape());
      r.outputs.push_back(o->data()->to_vector());
    }
    return r;
  }
  Function& function() { return *f_; }

 private:
  FunctionPtr f_;
  std::vector<VariablePtr> in_, out_;
  Variables raw_in_, raw_out_;
};

inline Forwarded forward_once(const std::string& type, const Attrs& attrs, const std::vector<RefArray>& inputs) {
  return ForwardRunner(type, attrs, inputs).run();
}

}  // namespace nn::test
