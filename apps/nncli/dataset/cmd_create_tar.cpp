// `nncli create_tar`: a CSV dataset to the TAR archive Neural Network Console takes
// (docs/command_line.md#dataset-tools).
#include <CLI/CLI.hpp>

#include "command.hpp"
#include "common/input_file_check.hpp"
#include "nn/core/log.hpp"
#include "dataset/upload_dataset.hpp"

namespace nncli {

struct CreateTarOptions {
  std::string source;
  std::string destination;
};

std::shared_ptr<CreateTarOptions> setup_create_tar(CLI::App& command) {
  auto o = std::make_shared<CreateTarOptions>();
  command.add_option("source", o->source, "CSV dataset")->required()->check(existing_input());
  command.add_option("destination", o->destination, "TAR filename")->required();
  return o;
}

int run_create_tar(const CreateTarOptions& options) {
  NN_LOG_INFO << "Prepare csv data";
  const NncDataset dataset = prepare_nnc_dataset(options.source);
  NN_LOG_INFO << "Prepare tar file";
  write_nnc_tar(dataset, options.destination);
  NN_LOG_INFO << "Wrote " << options.destination << " (" << dataset.rows.size() << " rows, "
              << dataset.data_files.size() << " data files)";
  return 0;
}

}  // namespace nncli
