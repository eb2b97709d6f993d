// Neural Network Console upload over libcurl: credential request (JSON) and the SigV4-signed S3 PUT.
#include "dataset/upload_client.hpp"

#define CURL_DISABLE_TYPECHECK  // plain functions, so the names below can be redirected
#include <curl/curl.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "nn/core/lazy_library.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

// libcurl (and the TLS, Kerberos and LDAP libraries behind it) is opened on the first upload.
namespace nncli {
namespace {
struct CurlApi {
  decltype(&curl_global_init) global_init;
  decltype(&curl_easy_init) easy_init;
  decltype(&curl_easy_setopt) easy_setopt;
  decltype(&curl_easy_perform) easy_perform;
  decltype(&curl_easy_getinfo) easy_getinfo;
  decltype(&curl_easy_strerror) easy_strerror;
  decltype(&curl_easy_cleanup) easy_cleanup;
  decltype(&curl_easy_escape) easy_escape;
  decltype(&curl_free) free;
  decltype(&curl_slist_append) slist_append;
  decltype(&curl_slist_free_all) slist_free_all;
};
const CurlApi& curl_api() {
  static const CurlApi api = [] {
    void* lib = nn::open_lazy_library({NNCLI_CURL_LIBRARY, "libcurl.so.4"}, "libcurl");
    CurlApi a{};
    nn::lazy_symbol(lib, "curl_global_init", a.global_init);
    nn::lazy_symbol(lib, "curl_easy_init", a.easy_init);
    nn::lazy_symbol(lib, "curl_easy_setopt", a.easy_setopt);
    nn::lazy_symbol(lib, "curl_easy_perform", a.easy_perform);
    nn::lazy_symbol(lib, "curl_easy_getinfo", a.easy_getinfo);
    nn::lazy_symbol(lib, "curl_easy_strerror", a.easy_strerror);
    nn::lazy_symbol(lib, "curl_easy_cleanup", a.easy_cleanup);
    nn::lazy_symbol(lib, "curl_easy_escape", a.easy_escape);
    nn::lazy_symbol(lib, "curl_free", a.free);
    nn::lazy_symbol(lib, "curl_slist_append", a.slist_append);
    nn::lazy_symbol(lib, "curl_slist_free_all", a.slist_free_all);
    return a;
  }();
  return api;
}
}  // namespace
}  // namespace nncli
#define curl_global_init nncli::curl_api().global_init
#define curl_easy_init nncli::curl_api().easy_init
#define curl_easy_setopt nncli::curl_api().easy_setopt
#define curl_easy_perform nncli::curl_api().easy_perform
#define curl_easy_getinfo nncli::curl_api().easy_getinfo
#define curl_easy_strerror nncli::curl_api().easy_strerror
#define curl_easy_cleanup nncli::curl_api().easy_cleanup
#define curl_easy_escape nncli::curl_api().easy_escape
#define curl_free nncli::curl_api().free
#define curl_slist_append nncli::curl_api().slist_append
#define curl_slist_free_all nncli::curl_api().slist_free_all

namespace nncli {

namespace {

constexpr const char* kDefaultEndpoint = "https://console-api.dl.sony.com";

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using CurlHandle = std::unique_ptr<CURL, CurlDeleter>;

size_t append_to_string(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

std::string escape(CURL* curl, const std::string& text) {
  char* escaped = curl_easy_escape(curl, text.c_str(), int(text.size()));
  std::string out = escaped ? escaped : "";
  curl_free(escaped);
  return out;
}

CurlHandle new_handle() {
  static const bool initialized = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  NN_CHECK(initialized) << "cannot initialize libcurl";
  CurlHandle curl(curl_easy_init());
  NN_CHECK(curl) << "cannot initialize libcurl";
  curl_easy_setopt(curl.get(), CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl.get(), CURLOPT_NOPROXY, "127.0.0.1,localhost,::1");
  curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT, 30L);
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  return curl;
}

// Performs the request; a transport failure or an HTTP status >= 400 is an error naming `what`.
long perform(CURL* curl, const std::string& what, const std::string& body) {
  char error[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  const CURLcode rc = curl_easy_perform(curl);
  NN_CHECK(rc == CURLE_OK) << what << ": " << (error[0] ? error : curl_easy_strerror(rc));
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  NN_CHECK(status < 400) << what << ": HTTP " << status << (body.empty() ? "" : ": " + body.substr(0, 200));
  return status;
}

struct Credential {
  std::string bucket, key, access_key_id, secret_access_key, session_token;
};

Credential request_credential(const UploadTarget& target, uint64_t size) {
  const bool official = target.endpoint == kDefaultEndpoint;
  NN_LOG_INFO << (official ? std::string("Getting Upload path")
                           : "Getting Upload path from [" + target.endpoint + "]");
  CurlHandle curl = new_handle();
  const std::string url =
      target.endpoint + "/v1/misc/credential?encrypted_text=" + escape(curl.get(), target.token) +
      "&dataset_name=" + escape(curl.get(), target.name) + "&dataset_size=" + std::to_string(size);
  std::string body;
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, append_to_string);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT, 120L);
  const std::string what = "credential request to '" + target.endpoint + "'";
  perform(curl.get(), what, body);
  const nlohmann::json info = nlohmann::json::parse(body, nullptr, false);
  NN_CHECK(info.is_object()) << what << ": the reply is not a JSON object";
  if (!info.contains("upload_path") || !info["upload_path"].is_string()) {
    const std::string message = info.contains("message") ? info["message"].dump() : "no message";
    NN_CHECK(false) << what << ": upload_path could not be retrieved from the server (" << message << ")";
  }
  const std::string upload_path = info["upload_path"].get<std::string>();
  NN_LOG_INFO << (official ? std::string("Got upload_url") : "upload_url is [" + upload_path + "]");
  const size_t scheme = upload_path.find("://");
  const size_t slash = scheme == std::string::npos ? scheme : upload_path.find('/', scheme + 3);
  NN_CHECK(slash != std::string::npos) << what << ": bad upload_path '" << upload_path
                                       << "' (want s3://bucket/key)";
  Credential c;
  c.bucket = upload_path.substr(scheme + 3, slash - scheme - 3);
  c.key = upload_path.substr(slash + 1);
  for (auto [field, out] :
       {std::pair{"access_key_id", &c.access_key_id}, std::pair{"secret_access_key", &c.secret_access_key},
        std::pair{"session_token", &c.session_token}}) {
    NN_CHECK(info.contains(field) && info[field].is_string()) << what << ": the reply lacks '" << field << "'";
    *out = info[field].get<std::string>();
  }
  return c;
}

void put_object(const UploadTarget& target, const Credential& c, const std::string& tar_path, uint64_t size) {
  const std::string object = c.key + "/" + target.name + ".tar";
  const std::string url = target.s3_endpoint.empty() ? "https://" + c.bucket + ".s3.amazonaws.com/" + object
                                                     : target.s3_endpoint + "/" + c.bucket + "/" + object;
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(tar_path.c_str(), "rb"));
  NN_CHECK(file) << "'" << tar_path << "': cannot open";
  CurlHandle curl = new_handle();
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  for (const std::string& h :
       {"x-amz-security-token: " + c.session_token, std::string("x-amz-content-sha256: UNSIGNED-PAYLOAD"),
        std::string("Content-Type: application/x-tar"), std::string("Expect:")})
    headers.reset(curl_slist_append(headers.release(), h.c_str()));
  const std::string sigv4 = "aws:amz:" + target.s3_region + ":s3";
  const std::string userpwd = c.access_key_id + ":" + c.secret_access_key;
  std::string body;
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_READDATA, file.get());
  curl_easy_setopt(curl.get(), CURLOPT_INFILESIZE_LARGE, curl_off_t(size));
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(curl.get(), CURLOPT_AWS_SIGV4, sigv4.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_USERPWD, userpwd.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, append_to_string);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &body);
  NN_LOG_INFO << "Upload " << size << " bytes";
  perform(curl.get(), "upload to 's3://" + c.bucket + "/" + object + "'", body);
}

}  // namespace

void upload_to_nnc(const UploadTarget& target, const std::string& tar_path) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(tar_path, ec);
  NN_CHECK(!ec) << "'" << tar_path << "': cannot open: " << ec.message();
  const Credential credential = request_credential(target, uint64_t(size));
  put_object(target, credential, tar_path, uint64_t(size));
}

}  // namespace nncli
