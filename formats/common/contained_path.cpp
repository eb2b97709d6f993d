// Paths named by model files, resolved and kept inside the model's folder.
#include "formats/common/contained_path.hpp"

#include <filesystem>
#include <system_error>

#include "nn/core/error.hpp"

namespace nn::formats {

namespace fs = std::filesystem;

std::string resolve_inside(const std::string& base_dir, const std::string& relative, const std::string& what) {
  NN_CHECK(!relative.empty()) << what << ": empty file name";
  const fs::path rel(relative);
  NN_CHECK(!rel.has_root_path()) << what << ": '" << relative
                                 << "' is an absolute path; only files inside the model's folder are read";
  for (const auto& part : rel)
    NN_CHECK(part != "..") << what << ": '" << relative
                           << "' leads out of the model's folder ('..'); only files inside it are read";
  const fs::path base = base_dir.empty() ? fs::path(".") : fs::path(base_dir);
  const fs::path joined = base / rel;
  std::error_code ec;
  NN_CHECK(fs::exists(joined, ec)) << what << ": file '" << joined.string() << "' is missing or unreadable";
  const fs::path real_base = fs::canonical(base, ec);
  NN_CHECK(!ec) << what << ": cannot resolve the model's folder '" << base.string() << "': " << ec.message();
  const fs::path real = fs::canonical(joined, ec);
  NN_CHECK(!ec) << what << ": cannot resolve '" << joined.string() << "': " << ec.message();
  // real must be real_base itself or below it, compared component by component.
  auto b = real_base.begin();
  auto r = real.begin();
  for (; b != real_base.end(); ++b, ++r)
    NN_CHECK(r != real.end() && *r == *b)
        << what << ": '" << relative << "' is a symbolic link that leads out of the model's folder (to '"
        << real.string() << "'); only files inside it are read";
  return joined.string();
}

}  // namespace nn::formats
