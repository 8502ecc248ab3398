#include "spellcheck/dictionary/data_files.hpp"

#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace spellcheck {

std::vector<std::string> data_directories() {
  std::vector<std::string> dirs;
  std::error_code ec;
  // The binary's own path, symbolic links resolved: PREFIX/bin/spellcheck.
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.has_parent_path()) dirs.push_back((exe.parent_path().parent_path() / "share" / "spellcheck").string());
  dirs.emplace_back(SPELLCHECK_SOURCE_DATA_DIR);
  dirs.emplace_back(SPELLCHECK_INSTALL_DATA_DIR);
  return dirs;
}

std::string find_data_file(const std::vector<std::string>& dirs, std::string_view relative) {
  for (const std::string& dir : dirs) {
    std::string path = dir + "/" + std::string(relative);
    if (::access(path.c_str(), R_OK) == 0) return path;
  }
  return {};
}

}  // namespace spellcheck
