// Declarations of every subcommand in commands.def: setup_<name> adds its options, run_<name> runs it.
#pragma once
#include <memory>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace nncli {

// setup_<name>(command) adds the options of <name> to its CLI11 subcommand and returns the struct the
// parsed values land in; run_<name>(options) returns the exit status (errors are thrown as nn::Error).
#define NNCLI_COMMAND(name, Options, setup, run, help) \
  struct Options;                                      \
  std::shared_ptr<Options> setup(CLI::App& command);   \
  int run(const Options& options);
#include "commands.def"
#undef NNCLI_COMMAND

}  // namespace nncli
