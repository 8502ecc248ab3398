#include "spellcheck/reader.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace spellcheck;

TEST_CASE("line cleaning strips spaces, tabs and CRs at both ends only") {
  CHECK(clean_line("  a b\t\r") == "a b");
  CHECK(clean_line("\r\n").size() == 1);  // '\n' is never inside a line
  CHECK(clean_line(" \t\r ").empty());
  std::vector<std::string> got;
  for_each_clean_line("a\r\n\n  \nb c \nlast", [&](std::string_view w) { got.emplace_back(w); });
  CHECK(got == std::vector<std::string>{"a", "b c", "last"});
}

TEST_CASE("shares cover the file exactly") {
  for (uint64_t size : {0ULL, 1ULL, 7ULL, 1000ULL})
    for (int p = 1; p <= 9; ++p) {
      CHECK(share_begin(size, 0, p) == 0);
      CHECK(share_begin(size, p, p) == size);
      for (int r = 0; r < p; ++r) CHECK(share_begin(size, r, p) <= share_begin(size, r + 1, p));
    }
}
