// The dataset archive Neural Network Console takes (create_tar, upload): CSV cells naming files are
// replaced by data/<n:012d>_<basename>, and index.csv plus the files go into an uncompressed TAR.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace nncli {

struct NncDataset {
  std::vector<std::vector<std::string>> rows;     // rewritten CSV, header first
  std::map<std::string, std::string> data_files;  // member name (data/...) -> file on disk, sorted by name
};

// Reads a CSV dataset as upstream's uploader does: a cell naming an existing file (as given, or relative
// to the CSV's folder with '\' read as '/') becomes a data/ member. A row whose cell count differs from
// the header's is an error naming its line.
NncDataset prepare_nnc_dataset(const std::string& csv_path);

// index.csv ("\r\n" line ends, Python csv quoting) followed by the data files in name order; written
// atomically.
void write_nnc_tar(const NncDataset& dataset, const std::string& tar_path);

}  // namespace nncli
