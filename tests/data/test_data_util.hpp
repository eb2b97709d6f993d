// Helpers for the dataset tests: paths into shared/testdata, zip extraction, scratch folders.
#pragma once
#include <string>

namespace nn::test {

std::string testdata(const std::string& relative);  // NN_TESTDATA_DIR + "/" + relative
// A fresh empty folder under the system temp dir, unique per call.
std::string scratch_dir(const std::string& tag);
// Extracts a zip (nested *.zip members are extracted next to themselves as well) into dest.
void extract_zip_tree(const std::string& zip_path, const std::string& dest);
// An extracted copy of datasets/spresense_lowpower_edgeai/<name>.zip, made once per process.
std::string spresense_dataset(const std::string& name);
void write_text(const std::string& path, const std::string& text);
std::string read_text(const std::string& path);

}  // namespace nn::test
