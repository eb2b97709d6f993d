// The text of nncli's one-line error reports: long names shortened, the subcommand word checked.
#pragma once
#include <string>
#include <vector>

namespace nncli {

// A quoted name longer than kMaxQuotedName (a file name of megabytes) is shown by its two ends.
constexpr size_t kMaxQuotedName = 240;
std::string shorten_quoted_names(const std::string& text);

// The first word of argv that is neither a flag nor the value of a global option in `with_value`, when
// it names no subcommand in `known` ("" otherwise): CLI11 reports such a word without naming it.
std::string unknown_subcommand(int argc, char** argv, const std::vector<std::string>& known,
                               const std::vector<std::string>& with_value);

}  // namespace nncli
