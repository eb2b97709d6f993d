// Paths that a model file names relative to its own folder, kept inside that folder.
#pragma once
#include <string>

namespace nn::formats {

// Resolves `relative` (as written in a model file) against `base_dir` and returns the resolved path.
// Refuses, with `what` leading the message: an empty or absolute path, any '..' component, and a path
// whose symbolic links lead outside base_dir. A missing file is reported as missing. The caller still
// reads it with read_file/read_file_range, which refuse anything but a regular file.
std::string resolve_inside(const std::string& base_dir, const std::string& relative, const std::string& what);

}  // namespace nn::formats
