// The command-line parsing every tool shares: its options plus one positional argument, the
// same error message and exit code for bad usage, and --help.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>

namespace npu::tools {

inline constexpr int kExitUsage = 2;

// Parses argv against `visible` plus the positional `positional_name` (read it from `vm`). Returns
// an exit code to stop with: 0 after printing --help, kExitUsage after printing a usage error
// ("<tool>: <what>" and a pointer to --help); nullopt to go on.
std::optional<int> ParseCommandLine(const std::string& tool, int argc, char** argv,
                                    const boost::program_options::options_description& visible,
                                    const char* positional_name,
                                    boost::program_options::variables_map& vm);

}  // namespace npu::tools
