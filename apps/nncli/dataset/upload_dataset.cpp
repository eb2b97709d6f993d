// The Neural Network Console dataset archive: CSV rewriting and the TAR (libarchive, pax-restricted ustar).
#include "dataset/upload_dataset.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>

#include "formats/common/atomic_file.hpp"
#include "formats/datasets/csv_text.hpp"
#include "nn/core/lazy_library.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

// libarchive (and libxml2/ICU behind it) is opened when a TAR is written.
namespace nncli {
namespace {
struct ArchiveApi {
  decltype(&archive_entry_free) entry_free;
  decltype(&archive_entry_new) entry_new;
  decltype(&archive_entry_set_filetype) entry_set_filetype;
  decltype(&archive_entry_set_gid) entry_set_gid;
  decltype(&archive_entry_set_mtime) entry_set_mtime;
  decltype(&archive_entry_set_pathname) entry_set_pathname;
  decltype(&archive_entry_set_perm) entry_set_perm;
  decltype(&archive_entry_set_size) entry_set_size;
  decltype(&archive_entry_set_uid) entry_set_uid;
  decltype(&archive_error_string) error_string;
  decltype(&archive_set_error) set_error;
  decltype(&archive_write_close) write_close;
  decltype(&archive_write_data) write_data;
  decltype(&archive_write_free) write_free;
  decltype(&archive_write_header) write_header;
  decltype(&archive_write_new) write_new;
  decltype(&archive_write_open) write_open;
  decltype(&archive_write_set_format_pax_restricted) write_set_format_pax_restricted;
};
const ArchiveApi& archive_api() {
  static const ArchiveApi api = [] {
    void* lib = nn::open_lazy_library({NNCLI_ARCHIVE_LIBRARY, "libarchive.so.13"}, "libarchive");
    ArchiveApi a{};
    nn::lazy_symbol(lib, "archive_entry_free", a.entry_free);
    nn::lazy_symbol(lib, "archive_entry_new", a.entry_new);
    nn::lazy_symbol(lib, "archive_entry_set_filetype", a.entry_set_filetype);
    nn::lazy_symbol(lib, "archive_entry_set_gid", a.entry_set_gid);
    nn::lazy_symbol(lib, "archive_entry_set_mtime", a.entry_set_mtime);
    nn::lazy_symbol(lib, "archive_entry_set_pathname", a.entry_set_pathname);
    nn::lazy_symbol(lib, "archive_entry_set_perm", a.entry_set_perm);
    nn::lazy_symbol(lib, "archive_entry_set_size", a.entry_set_size);
    nn::lazy_symbol(lib, "archive_entry_set_uid", a.entry_set_uid);
    nn::lazy_symbol(lib, "archive_error_string", a.error_string);
    nn::lazy_symbol(lib, "archive_set_error", a.set_error);
    nn::lazy_symbol(lib, "archive_write_close", a.write_close);
    nn::lazy_symbol(lib, "archive_write_data", a.write_data);
    nn::lazy_symbol(lib, "archive_write_free", a.write_free);
    nn::lazy_symbol(lib, "archive_write_header", a.write_header);
    nn::lazy_symbol(lib, "archive_write_new", a.write_new);
    nn::lazy_symbol(lib, "archive_write_open", a.write_open);
    nn::lazy_symbol(lib, "archive_write_set_format_pax_restricted", a.write_set_format_pax_restricted);
    return a;
  }();
  return api;
}
}  // namespace
}  // namespace nncli
#define archive_entry_free nncli::archive_api().entry_free
#define archive_entry_new nncli::archive_api().entry_new
#define archive_entry_set_filetype nncli::archive_api().entry_set_filetype
#define archive_entry_set_gid nncli::archive_api().entry_set_gid
#define archive_entry_set_mtime nncli::archive_api().entry_set_mtime
#define archive_entry_set_pathname nncli::archive_api().entry_set_pathname
#define archive_entry_set_perm nncli::archive_api().entry_set_perm
#define archive_entry_set_size nncli::archive_api().entry_set_size
#define archive_entry_set_uid nncli::archive_api().entry_set_uid
#define archive_error_string nncli::archive_api().error_string
#define archive_set_error nncli::archive_api().set_error
#define archive_write_close nncli::archive_api().write_close
#define archive_write_data nncli::archive_api().write_data
#define archive_write_free nncli::archive_api().write_free
#define archive_write_header nncli::archive_api().write_header
#define archive_write_new nncli::archive_api().write_new
#define archive_write_open nncli::archive_api().write_open
#define archive_write_set_format_pax_restricted nncli::archive_api().write_set_format_pax_restricted

namespace nncli {

namespace {

namespace fs = std::filesystem;

bool is_regular_file(const std::string& path) {
  std::error_code ec;
  return !path.empty() && fs::is_regular_file(path, ec);
}

// The file a cell names, or "" when it names none (upstream: the cell itself, then '<csv dir>/<cell>').
std::string data_file_of(const std::string& cell, const std::string& csv_dir) {
  if (cell.empty()) return "";
  if (is_regular_file(cell)) return cell;
  std::string relative = cell;
  std::replace(relative.begin(), relative.end(), '\\', '/');
  const std::string joined = (fs::path(csv_dir) / relative).string();
  return is_regular_file(joined) ? joined : "";
}

struct ArchiveDeleter {
  void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryDeleter {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};

// libarchive calls this from C: errors are kept and reported after the call instead of thrown through it.
struct TarSink {
  nn::formats::AtomicFile* file;
  std::string error;
};

la_ssize_t write_to_sink(archive* a, void* client, const void* buffer, size_t length) {
  auto* sink = static_cast<TarSink*>(client);
  try {
    sink->file->write(std::string_view(static_cast<const char*>(buffer), length));
  } catch (const std::exception& e) {
    sink->error = e.what();
    archive_set_error(a, EIO, "%s", e.what());
    return -1;
  }
  return la_ssize_t(length);
}

void check_archive(archive* a, int status, const std::string& path) {
  NN_CHECK(status >= ARCHIVE_WARN) << "'" << path << "': cannot write the TAR: " << archive_error_string(a);
}

void add_member(archive* a, const std::string& tar_path, const std::string& name, const std::string& bytes,
                const struct stat* source) {
  std::unique_ptr<archive_entry, EntryDeleter> entry(archive_entry_new());
  archive_entry_set_pathname(entry.get(), name.c_str());
  archive_entry_set_filetype(entry.get(), AE_IFREG);
  archive_entry_set_size(entry.get(), la_int64_t(bytes.size()));
  if (source) {
    archive_entry_set_perm(entry.get(), source->st_mode & 07777);
    archive_entry_set_mtime(entry.get(), source->st_mtime, 0);
    archive_entry_set_uid(entry.get(), source->st_uid);
    archive_entry_set_gid(entry.get(), source->st_gid);
  } else {
    archive_entry_set_perm(entry.get(), 0644);
    archive_entry_set_mtime(entry.get(), std::time(nullptr), 0);
  }
  check_archive(a, archive_write_header(a, entry.get()), tar_path);
  if (!bytes.empty()) {
    NN_CHECK(archive_write_data(a, bytes.data(), bytes.size()) == la_ssize_t(bytes.size()))
        << "'" << tar_path << "': cannot write member '" << name << "': " << archive_error_string(a);
  }
}

}  // namespace

NncDataset prepare_nnc_dataset(const std::string& csv_path) {
  nn::formats::require_regular_file(csv_path);  // a folder (CLI11's PATH passes it) is named as not a file
  const std::string csv_dir = fs::path(csv_path).parent_path().string();
  NncDataset dataset;
  size_t header_cells = 0;
  size_t data_count = 0;
  for (const auto& record : nn::formats::datasets::read_csv_file(csv_path)) {
    if (dataset.rows.empty()) {
      header_cells = record.cells.size();
    } else {
      NN_CHECK(record.cells.size() == header_cells)
          << "'" << csv_path << "':" << record.line << ": invalid line in csv file: " << record.cells.size()
          << " cells, but the header has " << header_cells;
    }
    std::vector<std::string> row;
    for (const auto& cell : record.cells) {
      const std::string file = data_file_of(cell, csv_dir);
      if (file.empty()) {
        row.push_back(cell);
        continue;
      }
      char prefix[32];
      std::snprintf(prefix, sizeof prefix, "data/%012zu_", data_count++);
      const std::string member = prefix + fs::path(file).filename().string();
      dataset.data_files[member] = fs::absolute(file).string();
      row.push_back(member);
    }
    dataset.rows.push_back(std::move(row));
  }
  NN_CHECK(!dataset.rows.empty()) << "'" << csv_path << "': empty CSV file";
  return dataset;
}

void write_nnc_tar(const NncDataset& dataset, const std::string& tar_path) {
  std::string index;
  for (const auto& row : dataset.rows) index += nn::formats::datasets::format_csv_row(row) + "\r\n";
  nn::formats::AtomicFile out(tar_path);
  std::unique_ptr<archive, ArchiveDeleter> a(archive_write_new());
  archive_write_set_format_pax_restricted(a.get());
  TarSink sink{&out, ""};
  check_archive(a.get(), archive_write_open(a.get(), &sink, nullptr, write_to_sink, nullptr), tar_path);
  NN_LOG_INFO << "Add file to tar archive.";
  add_member(a.get(), tar_path, "index.csv", index, nullptr);
  for (const auto& [member, file] : dataset.data_files) {
    struct stat info {};
    NN_CHECK(::stat(file.c_str(), &info) == 0) << "'" << file << "': cannot open";
    add_member(a.get(), tar_path, member, nn::formats::read_file(file), &info);
  }
  check_archive(a.get(), archive_write_close(a.get()), tar_path);
  out.commit();
}

}  // namespace nncli
