// Neural Network Console's upload protocol (upstream uploader.py): a credential request to the console
// API, then an S3 PUT of '<key>/<name>.tar' signed with the temporary AWS credentials it returned.
#pragma once
#include <string>

namespace nncli {

struct UploadTarget {
  std::string endpoint;     // console API, e.g. https://console-api.dl.sony.com
  std::string s3_endpoint;  // "" = https://<bucket>.s3.amazonaws.com; else path style <url>/<bucket>/<key>
  std::string s3_region = "us-east-1";
  std::string token;  // the upload token NNC shows ("encrypted_text")
  std::string name;   // dataset name (file name without extension)
};

// Uploads the TAR file; throws nn::Error naming the step (credential request or upload) on failure.
void upload_to_nnc(const UploadTarget& target, const std::string& tar_path);

}  // namespace nncli
