#pragma once
// Where the data files that ship with spellcheck (freq/en-80k.txt) are found.
// An installed binary looks next to itself first (PREFIX/bin/spellcheck ->
// PREFIX/share/spellcheck), so a package unpacked or relocated anywhere
// works; a binary in a build tree finds the files beside the sources; the
// install directory the build was configured for comes last.
#include <string>
#include <string_view>
#include <vector>

namespace spellcheck {

// The directories searched, in order: <directory of the running binary>/
// ../share/spellcheck (when /proc/self/exe can be read), the source tree,
// the configured install data directory.
std::vector<std::string> data_directories();

// The first readable directory/relative among dirs; "" when there is none.
std::string find_data_file(const std::vector<std::string>& dirs, std::string_view relative);

// find_data_file(data_directories(), relative).
inline std::string find_data_file(std::string_view relative) { return find_data_file(data_directories(), relative); }

}  // namespace spellcheck
