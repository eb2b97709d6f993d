// Test helpers: testdata paths, recursive zip extraction through formats' ZipReader, scratch folders.
#include "test_data_util.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "formats/common/zip_archive.hpp"

namespace nn::test {

namespace fs = std::filesystem;

std::string testdata(const std::string& relative) { return std::string(NN_TESTDATA_DIR) + "/" + relative; }

std::string scratch_dir(const std::string& tag) {
  static std::atomic<int> counter{0};
  fs::path p = fs::temp_directory_path() /
               ("nn_data_" + tag + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

void extract_zip_tree(const std::string& zip_path, const std::string& dest) {
  auto reader = formats::ZipReader::open_file(zip_path);
  for (size_t i = 0; i < reader.names().size(); ++i) {
    const std::string& name = reader.names()[i];
    fs::path out = fs::path(dest) / name;
    if (!name.empty() && name.back() == '/') {
      fs::create_directories(out);
      continue;
    }
    fs::create_directories(out.parent_path());
    std::ofstream(out, std::ios::binary) << reader.read(i);
    if (out.extension() == ".zip") extract_zip_tree(out.string(), out.parent_path().string());
  }
}

std::string spresense_dataset(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::string> done;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = done.find(name);
  if (it != done.end()) return it->second;
  std::string dir = scratch_dir("spresense_" + name);
  extract_zip_tree(testdata("datasets/spresense_lowpower_edgeai/" + name + ".zip"), dir);
  done[name] = dir;
  return dir;
}

void write_text(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace nn::test
