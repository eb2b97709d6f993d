// CLI11 help text wrapped to an 80-column terminal (CLI11 2.1 prints descriptions on one line).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace nncli {

constexpr size_t kHelpWidth = 80;

// Word-wraps text to width columns; lines after the first are meant to follow an indent of indent.
std::string wrap_text(const std::string& text, size_t width);

class WrappingFormatter : public CLI::Formatter {
 public:
  WrappingFormatter();
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
};

}  // namespace nncli
