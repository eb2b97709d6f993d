// The text of nncli's one-line error reports: long names shortened, the subcommand word checked.
#include "error_line.hpp"

#include <algorithm>

namespace nncli {

std::string shorten_quoted_names(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t open = text.find('\'', pos);
    const size_t close = open == std::string::npos ? open : text.find('\'', open + 1);
    if (close == std::string::npos) break;
    out.append(text, pos, open + 1 - pos);
    const size_t length = close - open - 1;
    if (length > kMaxQuotedName) {
      out.append(text, open + 1, 120);
      out += "...(" + std::to_string(length - 200) + " more characters)...";
      out.append(text, close - 80, 80);
    } else {
      out.append(text, open + 1, length);
    }
    out += '\'';
    pos = close + 1;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

std::string unknown_subcommand(int argc, char** argv, const std::vector<std::string>& known,
                               const std::vector<std::string>& with_value) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (std::find(with_value.begin(), with_value.end(), word) != with_value.end()) {
      ++i;  // "--threads 2": the value is no subcommand
      continue;
    }
    if (!word.empty() && word[0] == '-') continue;  // global flags come before the subcommand
    return std::find(known.begin(), known.end(), word) == known.end() ? word : "";
  }
  return "";
}

}  // namespace nncli
