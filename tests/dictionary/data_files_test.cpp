// Where shipped data files are found: next to the running binary first
// (PREFIX/bin -> PREFIX/share/spellcheck), then the source tree, then the
// configured install directory; the first readable file wins. The installed
// binary's own lookup is run for real by the package test (package.deb).
#include "spellcheck/dictionary/data_files.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "temp_files.hpp"

namespace fs = std::filesystem;
using namespace spellcheck;
using spellcheck::testing::TempDir;
using spellcheck::testing::write;

TEST_CASE("the binary's own share/spellcheck comes first, then the sources, then the install directory") {
  const std::vector<std::string> dirs = data_directories();
  REQUIRE(dirs.size() == 3);
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  CHECK(dirs[0] == (exe.parent_path().parent_path() / "share" / "spellcheck").string());
  CHECK(dirs[1] == SPELLCHECK_SOURCE_DATA_DIR);
  CHECK(dirs[2] == SPELLCHECK_INSTALL_DATA_DIR);
}

TEST_CASE("the source tree's frequency list is found from a build tree") {
  CHECK(find_data_file("freq/en-80k.txt") == std::string(SPELLCHECK_SOURCE_DATA_DIR) + "/freq/en-80k.txt");
  CHECK(find_data_file("freq/no-such-list.txt").empty());
}

TEST_CASE("the first directory holding a readable file wins") {
  TempDir t;
  write(t.path / "a/freq/x.txt", "a 1\n");
  write(t.path / "b/freq/x.txt", "b 1\n");
  write(t.path / "b/freq/only-b.txt", "b 1\n");
  const std::vector<std::string> dirs = {t.str("missing"), t.str("a"), t.str("b")};
  CHECK(find_data_file(dirs, "freq/x.txt") == t.str("a") + "/freq/x.txt");
  CHECK(find_data_file(dirs, "freq/only-b.txt") == t.str("b") + "/freq/only-b.txt");
  CHECK(find_data_file(dirs, "freq/none.txt").empty());
  CHECK(find_data_file({}, "freq/x.txt").empty());
  if (::geteuid() != 0) {  // root reads anything
    ::chmod(t.str("a/freq/x.txt").c_str(), 0);
    CHECK(find_data_file(dirs, "freq/x.txt") == t.str("b") + "/freq/x.txt");
  }
}
