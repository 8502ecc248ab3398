// parse_frequencies: `word count` lines (spaces or a tab), CRLF and blank
// lines accepted; anything else is bad input naming the file.
#include "spellcheck/dictionary/frequencies.hpp"

#include <doctest/doctest.h>

#include <string>

#include "spellcheck/common/errors.hpp"

using namespace spellcheck;

namespace {

std::string words_of(const FrequencyList& f) {
  std::string s;
  for (size_t i = 0; i < f.words.size(); ++i) s += std::string(f.words[i]) + "=" + std::to_string(f.counts[i]) + ";";
  return s;
}

void bad(std::string_view text) {
  CAPTURE(std::string(text));
  CHECK_THROWS_AS(parse_frequencies(text, "freq.txt"), InputError);
  try {
    parse_frequencies(text, "freq.txt");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("freq.txt") != std::string::npos);
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  }
}

}  // namespace

TEST_CASE("parse_frequencies: accepted forms") {
  CHECK(words_of(parse_frequencies("the 123\n", "f")) == "the=123;");
  CHECK(words_of(parse_frequencies("the 123", "f")) == "the=123;");  // no final newline
  CHECK(words_of(parse_frequencies("the\t123\nof\t7\n", "f")) == "the=123;of=7;");
  CHECK(words_of(parse_frequencies("the 123\r\nof 7\r\n", "f")) == "the=123;of=7;");
  CHECK(words_of(parse_frequencies("\n\nthe 1\n\n   \n\t\r\nof 2\n\n", "f")) == "the=1;of=2;");
  CHECK(words_of(parse_frequencies("the   123  \n", "f")) == "the=123;");
  CHECK(words_of(parse_frequencies("  the 5\n", "f")) == "the=5;");
  CHECK(words_of(parse_frequencies("école 0\nΑθήνα 1000000000000000\n", "f")) == "école=0;Αθήνα=1000000000000000;");
  CHECK(words_of(parse_frequencies("don't 42\n", "f")) == "don't=42;");
  CHECK(parse_frequencies("", "f").words.empty());
  CHECK(parse_frequencies("\n\r\n", "f").counts.empty());
  const FrequencyList f = parse_frequencies("a 1\nb 2\nc 3\n", "f");
  CHECK(f.words.size() == 3);
  CHECK(f.counts.size() == 3);
}

TEST_CASE("parse_frequencies: bad input throws InputError") {
  bad(std::string_view("the 1\nof\0 2\n", 12));  // a NUL byte: binary
  bad(std::string_view("\0", 1));
  bad("the\n");   // missing count
  bad("the \n");  // missing count, blank after
  bad("of 2\nthe\t\r\n");
  bad("the -5\n");  // negative
  bad("the -0\n");
  bad("the 1.5\n");  // fractional
  bad("the 2e3\n");
  bad("the 1000000000000001\n");         // over 10^15
  bad("the 99999999999999999999999\n");  // over 2^64
  bad("the many\n");                     // not a number
  bad("the 12abc\n");
  bad("the 0x10\n");
  bad("the 1 2\n");
  bad("the +3\n");
}
