#include "tools/common/provenance.h"

#include <unistd.h>

#include <array>
#include <cctype>
#include <chrono>
#include <ctime>
#include <string_view>

#include "tools/common/build_info.h"

namespace npu::tools {
namespace {

std::string UtcNow() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

std::string HostName() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

bool NeedsQuotes(const std::string& arg) {
  if (arg.empty()) return true;
  for (const char c : arg) {
    const bool safe = std::isalnum(static_cast<unsigned char>(c)) ||
                      std::string_view("-_./=:,+@%").find(c) != std::string_view::npos;
    if (!safe) return true;
  }
  return false;
}

std::string Quoted(const std::string& arg) {
  if (!NeedsQuotes(arg)) return arg;
  std::string out = "'";
  for (const char c : arg) {
    if (c == '\'') {
      out += "'\\''";  // close the quote, an escaped quote, reopen
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

}  // namespace

std::string ShellQuotedCommandLine(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) line += ' ';
    line += Quoted(argv[i]);
  }
  return line;
}

report::Provenance CurrentProvenance(const std::string& command_line) {
  const BuildInfo& b = GetBuildInfo();
  report::Provenance p;
  p.version = b.version;
  p.commit = b.commit;
  p.dirty = b.dirty;
  p.build_type = b.build_type;
  p.timestamp = UtcNow();
  p.host = HostName();
  p.command_line = command_line;
  return p;
}

}  // namespace npu::tools
