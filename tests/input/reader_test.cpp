#include "spellcheck/input/reader.hpp"

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

TEST_CASE("lines_to_words cleans lines in place, drops blanks and long lines") {
  uint64_t too_long = 0;
  const WordList w = lines_to_words(" a \r\n\n\t\nbb c\r\ntoolongword\nlast \t", 5, &too_long);
  REQUIRE(w.size() == 3);
  CHECK(w[0] == "a");
  CHECK(w[1] == "bb c");
  CHECK(w[2] == "last");
  CHECK(too_long == 1);
  CHECK(w.bytes == "a\nbb c\nlast\n");
  const WordList x = lines_to_words("x", 64, nullptr);  // no final newline, nothing to strip
  CHECK(x.bytes == "x\n");
  CHECK(lines_to_words("", 64, nullptr).empty());
  CHECK(lines_to_words("\n\r\n  \n", 64, nullptr).empty());
}
