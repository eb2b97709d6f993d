// Help text wrapping: descriptions break at spaces; CLI11 indents each '\n' to the description column.
#include "wrapped_help.hpp"

#include <sstream>

namespace nncli {

namespace {
constexpr size_t kColumn = 30;  // where option and subcommand descriptions start
}

std::string wrap_text(const std::string& text, size_t width) {
  std::string out;
  std::istringstream paragraphs(text);
  std::string paragraph;
  bool first_paragraph = true;
  while (std::getline(paragraphs, paragraph)) {
    if (!first_paragraph) out += '\n';
    first_paragraph = false;
    std::istringstream words(paragraph);
    std::string word;
    size_t line = 0;
    while (words >> word) {
      if (line > 0 && line + 1 + word.size() > width) {
        out += '\n';
        line = 0;
      }
      if (line > 0) {
        out += ' ';
        ++line;
      }
      out += word;
      line += word.size();
    }
  }
  return out;
}

WrappingFormatter::WrappingFormatter() { column_width(kColumn); }

std::string WrappingFormatter::make_option_desc(const CLI::Option* opt) const {
  return wrap_text(CLI::Formatter::make_option_desc(opt), kHelpWidth - kColumn);
}

std::string WrappingFormatter::make_subcommand(const CLI::App* sub) const {
  std::stringstream out;
  CLI::detail::format_help(out, sub->get_display_name(true),
                           wrap_text(sub->get_description(), kHelpWidth - kColumn), kColumn);
  return out.str();
}

std::string WrappingFormatter::make_description(const CLI::App* app) const {
  const std::string text = CLI::Formatter::make_description(app);
  return text.empty() ? text : wrap_text(text, kHelpWidth) + "\n";
}

}  // namespace nncli
