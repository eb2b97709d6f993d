// A CLI11 check for options that name input files: a path that does not exist is a usage error (exit 2).
#pragma once
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <string>

namespace nncli {

// Passes files and folders that exist; otherwise "'<path>': cannot open: no such file or directory".
inline CLI::Validator existing_input() {
  return CLI::Validator(
      [](std::string& path) {
        struct stat st {};
        return ::stat(path.c_str(), &st) == 0 ? std::string()
                                              : "'" + path + "': cannot open: no such file or directory";
      },
      "PATH", "existing input");
}

}  // namespace nncli
