// Restoring `nncli train` state: parameters, solver states and -r (broadcast from rank 0 under MPI).
#include "train/train_resume.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "formats/common/atomic_file.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "train/train_io.hpp"

namespace nncli {

namespace fs = std::filesystem;

namespace {

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

enum class ResumeFrom : int64_t { kStart = 0, kCheckpoint = 1, kCurrentResults = 2 };

std::string read_bytes(const std::string& path) { return nn::formats::read_file(path); }

// A file received from rank 0, kept under the temporary directory while it is read.
class ReceivedFile {
 public:
  ReceivedFile(const std::string& name, const std::string& bytes) {
    path_ = (fs::temp_directory_path() / ("nncli_resume_" + std::to_string(::getpid()) + "_" + name)).string();
    std::ofstream f(path_, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    NN_CHECK(f.good()) << "cannot write " << in_quotes(path_);
  }
  ~ReceivedFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

void copy_parameter_values(const std::vector<nn::ir::Parameter>& from, nn::ir::ParameterStore& store) {
  for (const auto& p : from) {
    nn::VariablePtr v = store.find(p.name);
    if (!v) continue;
    NN_CHECK(v->shape() == p.shape) << "parameter " << in_quotes(p.name) << " has shape " << nn::to_string(p.shape)
                                    << " in the checkpoint but " << nn::to_string(v->shape()) << " in the network";
    std::copy(p.data.begin(), p.data.end(), v->data()->cast<float>(true));
  }
}

void set_solver_states(nn::train::Trainer& trainer, const SolverStatesByOptimizer& states) {
  for (size_t i = 0; i < trainer.num_optimizers(); ++i) {
    auto it = states.find(trainer.optimizer(i).name);
    if (it != states.end()) trainer.solver(i).set_states(to_solver_states(it->second, trainer.solver(i)));
  }
}

SolverStatesByOptimizer states_of(const nn::ir::Model& m) {
  SolverStatesByOptimizer out;
  for (const auto& o : m.optimizers)
    if (!o.solver.states.empty()) out[o.name] = o.solver.states;
  return out;
}

void resume_training(const std::string& outdir, const nn::ir::Model& model, nn::ir::ParameterStore& store,
                     nn::train::Trainer& trainer, nn::train::Communicator& communicator) {
  // Rank 0 decides: {what, epoch of results_current_N}, the file name and (MPI) its bytes.
  int64_t choice[2] = {int64_t(ResumeFrom::kStart), 0};
  std::string path, name, bytes;
  if (communicator.is_root()) {
    const std::optional<int64_t> latest = latest_current_epoch(outdir);
    const std::string ckpt_path = checkpoint_path(outdir);
    std::optional<Checkpoint> ckpt = read_checkpoint(ckpt_path, model.optimizers);
    if (ckpt) {
      // The checkpoint is always the exact state; results_current_N.nnp newer than it means the run
      // stopped between the two writes of an older nncli: that epoch is trained again, losslessly.
      if (latest && ckpt->state.iteration < *latest * trainer.iter_per_epoch())
        NN_LOG_INFO << in_quotes(fs::path(current_results_path(outdir, *latest)).filename().string())
                    << " is newer than the checkpoint; resuming exactly from the checkpoint instead";
      choice[0] = int64_t(ResumeFrom::kCheckpoint);
      path = ckpt_path;
    } else if (latest) {
      choice[0] = int64_t(ResumeFrom::kCurrentResults);
      choice[1] = *latest;
      path = current_results_path(outdir, *latest);
    }
    name = fs::path(path).filename().string();
    if (communicator.distributed() && !path.empty()) bytes = read_bytes(path);
  }
  std::optional<ReceivedFile> received;
  if (communicator.distributed()) {
    communicator.broadcast(choice, sizeof(choice), 0);
    communicator.broadcast_string(name, 0);
    communicator.broadcast_string(bytes, 0);
    if (!communicator.is_root() && !name.empty()) {
      received.emplace(name, bytes);
      path = received->path();
    }
  }
  switch (ResumeFrom(choice[0])) {
    case ResumeFrom::kCheckpoint: {
      NN_LOG_INFO << "Load parameter from [" << name << "]";
      std::optional<Checkpoint> ckpt = read_checkpoint(path, model.optimizers);
      NN_CHECK(ckpt.has_value()) << "checkpoint " << in_quotes(name) << " vanished while resuming";
      copy_parameter_values(ckpt->parameters, store);
      set_solver_states(trainer, ckpt->solver_states);
      trainer.restore(ckpt->state);
      const int64_t ipe = std::max<int64_t>(trainer.iter_per_epoch(), 1);
      NN_LOG_INFO << "Resume from epoch " << ckpt->state.iteration / ipe + 1 << " (iteration "
                  << ckpt->state.iteration << ")";
      break;
    }
    case ResumeFrom::kCurrentResults: {
      NN_LOG_INFO << "Load parameter from [" << name << "]";
      nn::ir::Model loaded;
      loaded.optimizers = model.optimizers;
      for (auto& o : loaded.optimizers) o.solver.states.clear();
      nn::formats::load_parameters_into(loaded, path);
      copy_parameter_values(loaded.parameters, store);
      const SolverStatesByOptimizer states = states_of(loaded);
      set_solver_states(trainer, states);
      trainer.restart_at_epoch(choice[1]);
      NN_LOG_INFO << "Resume from epoch " << choice[1] + 1;
      // No train_checkpoint.nnp (a directory written by nnabla): upstream's resume, not an exact one.
      NN_LOG_WARNING << "no " << in_quotes(fs::path(checkpoint_path(outdir)).filename().string()) << " in "
                     << in_quotes(outdir) << ": resumed from " << in_quotes(name) << " as nnabla does"
                     << (states.empty() ? ", without solver states (the optimizer starts afresh)" : "")
                     << "; the data order restarts at the epoch";
      break;
    }
    case ResumeFrom::kStart: NN_LOG_INFO << "Resume from epoch 1"; break;
  }
}

}  // namespace nncli
