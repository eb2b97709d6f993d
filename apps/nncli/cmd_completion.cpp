// `nncli completion bash` (hidden): a bash completion script written from the subcommand table and the
// options CLI11 knows for each subcommand, so that it never lags behind the commands.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "command.hpp"

namespace nncli {

struct CompletionOptions {
  std::string shell;
  const CLI::App* root = nullptr;
};

std::shared_ptr<CompletionOptions> setup_completion(CLI::App& command) {
  auto o = std::make_shared<CompletionOptions>();
  o->root = command.get_parent();
  command.group("");  // hidden from `nncli --help`
  command.add_option("shell", o->shell, "Shell to write the completion script for")
      ->required()
      ->check(CLI::IsMember({"bash"}));
  return o;
}

namespace {

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Every spelling of a named option: -b --batch_size --batch-size.
std::vector<std::string> spellings(const CLI::Option* opt) {
  std::vector<std::string> names;
  for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
  return names;
}

// The choices of an option checked by CLI::IsMember: its type name reads "TEXT:{a,b,c}".
std::vector<std::string> choices(const CLI::Option* opt) {
  const std::string type = opt->get_type_name();
  const size_t open = type.find('{'), close = type.rfind('}');
  std::vector<std::string> out;
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string item;
  for (size_t i = open + 1; i <= close; ++i) {
    if (type[i] == ',' || i == close) {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else if (type[i] != ' ') {
      item += type[i];
    }
  }
  return out;
}

std::vector<std::string> option_words(const CLI::App* app) {
  std::vector<std::string> words;
  for (const CLI::Option* opt : app->get_options())
    for (const auto& s : spellings(opt)) words.push_back(s);
  return words;
}

// One `case` branch: value choices for the previous word, then the subcommand's option names.
void print_branch(const CLI::App* sub) {
  std::string values_case;
  for (const CLI::Option* opt : sub->get_options()) {
    const std::vector<std::string> names = spellings(opt), values = choices(opt);
    if (names.empty() || values.empty() || opt->get_type_size() == 0) continue;
    std::string pattern;
    for (const auto& n : names) pattern += (pattern.empty() ? "" : "|") + n;
    values_case +=
        "        " + pattern + ") COMPREPLY=($(compgen -W \"" + join(values) + "\" -- \"$cur\")); return ;;\n";
  }
  std::printf("    %s)\n", sub->get_name().c_str());
  if (!values_case.empty()) std::printf("      case $prev in\n%s      esac\n", values_case.c_str());
  std::printf("      opts=\"%s\" ;;\n", join(option_words(sub)).c_str());
}

}  // namespace

int run_completion(const CompletionOptions& o) {
  std::vector<std::string> names;
  for (const CLI::App* sub : o.root->get_subcommands({}))
    if (!sub->get_group().empty()) names.push_back(sub->get_name());
  std::printf(
      "# bash completion for nncli, written by `nncli completion bash` from its command table.\n"
      "_nncli() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=\"\" opts=\"\" i\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    case ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac\n"
      "  done\n"
      "  case $cmd in\n"
      "    \"\")\n"
      "      opts=\"%s\"\n"
      "      [[ $cur == -* ]] || opts=\"%s\" ;;\n",
      join(option_words(o.root)).c_str(), join(names).c_str());
  for (const CLI::App* sub : o.root->get_subcommands({}))
    if (!sub->get_group().empty()) print_branch(sub);
  std::printf(
      "  esac\n"
      "  if [[ -z $cmd || $cur == -* ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
      "  fi\n"
      "}\n"
      "complete -o default -F _nncli nncli\n");
  return 0;
}

}  // namespace nncli
