// Shared command-line parsing.
#include "tools/common/command_line.h"

#include <iostream>

#include "tools/common/build_info.h"

namespace npu::tools {

namespace po = boost::program_options;

std::optional<int> ParseCommandLine(const std::string& tool, int argc, char** argv,
                                    const po::options_description& visible,
                                    const char* positional_name, po::variables_map& vm) {
  // Every tool answers --help and --version the same way.
  po::options_description shown(visible);
  shown.add_options()("version", "print the version and the commit built from, then exit");
  po::options_description all;
  all.add(shown).add_options()(positional_name, po::value<std::string>());
  po::positional_options_description positional;
  positional.add(positional_name, 1);
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << tool << ": " << e.what() << "\n(" << tool << " --help lists the options)\n";
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << shown << "\n";
    return 0;
  }
  if (vm.count("version")) {
    std::cout << VersionLine(tool) << "\n";
    return 0;
  }
  return std::nullopt;
}

}  // namespace npu::tools
