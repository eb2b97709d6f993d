// `nncli upload`: posts a CSV (converted as create_tar does) or TAR dataset to Neural Network Console.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>

#include "command.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/common/file_format.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "dataset/upload_client.hpp"
#include "dataset/upload_dataset.hpp"

namespace nncli {

struct UploadOptions {
  std::string endpoint;
  std::string s3_endpoint;
  std::string s3_region = "us-east-1";
  std::string token;
  std::string filename;
};

std::shared_ptr<UploadOptions> setup_upload(CLI::App& command) {
  auto o = std::make_shared<UploadOptions>();
  command.add_option("-e,--endpoint", o->endpoint,
                     "Console API endpoint (default $NNC_ENDPOINT or https://console-api.dl.sony.com)");
  command.add_option("--s3-endpoint", o->s3_endpoint,
                     "Storage endpoint for the PUT, path style (default https://<bucket>.s3.amazonaws.com)");
  command.add_option("--s3-region", o->s3_region, "Region the upload is signed for")->capture_default_str();
  command.add_option("token", o->token, "Upload token from Neural Network Console")->required();
  command.add_option("filename", o->filename, "Dataset to upload (.csv or .tar)")->required();
  return o;
}

namespace {

// A temporary directory removed when it goes out of scope.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "nncli_upload.XXXXXX").string();
    NN_CHECK(::mkdtemp(pattern.data()) != nullptr) << "cannot create a temporary directory";
    path = pattern;
    NN_LOG_VERBOSE << "Temporary dir " << path.string() << " created";
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

int run_upload(const UploadOptions& options) {
  UploadTarget target;
  target.endpoint = options.endpoint;
  if (target.endpoint.empty()) {
    const char* env = std::getenv("NNC_ENDPOINT");
    target.endpoint = env && *env ? env : "https://console-api.dl.sony.com";
  }
  while (!target.endpoint.empty() && target.endpoint.back() == '/') target.endpoint.pop_back();
  target.s3_endpoint = options.s3_endpoint;
  while (!target.s3_endpoint.empty() && target.s3_endpoint.back() == '/') target.s3_endpoint.pop_back();
  target.s3_region = options.s3_region;
  target.token = options.token;
  target.name = std::filesystem::path(options.filename).stem().string();

  const std::string ext = nn::formats::file_extension(options.filename);
  NN_CHECK(ext == "csv" || ext == "tar") << "'" << options.filename << "': filename with extension ." << ext
                                         << " is not supported (use .csv or .tar)";
  nn::formats::require_regular_file(options.filename);
  if (ext == "tar") {
    upload_to_nnc(target, options.filename);
  } else {
    TempDir temp;
    NN_LOG_INFO << "Prepare csv data";
    const NncDataset dataset = prepare_nnc_dataset(options.filename);
    NN_LOG_INFO << "Prepare tar file";
    const std::string tar_path = (temp.path / (target.name + ".tar")).string();
    write_nnc_tar(dataset, tar_path);
    NN_LOG_INFO << "Upload";
    upload_to_nnc(target, tar_path);
  }
  NN_LOG_INFO << "Finished";
  return 0;
}

}  // namespace nncli
