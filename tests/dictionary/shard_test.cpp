#include "spellcheck/dictionary/shard.hpp"

#include <doctest/doctest.h>

#include "spellcheck/common/word_hash.hpp"

using namespace spellcheck;

namespace {
bool has(const Shard& s, std::string_view w) { return s.contains(w, word_hash(w)); }
}  // namespace

TEST_CASE("the SPEC case rule: first byte lowered, ASCII A-Z only") {
  WordList entries;
  for (auto w : {"apple", "Boston", "IBM", "x", "3rd", "\xc3\x89t\xc3\xa9", "apple"}) entries.push_back(w);
  Shard s;
  s.build(std::move(entries));
  CHECK(s.entries() == 7);
  CHECK(s.keys() == 6);
  CHECK(has(s, "apple"));
  CHECK(has(s, "Apple"));  // Apple correct when apple is an entry
  CHECK_FALSE(has(s, "APPLE"));
  CHECK(has(s, "Boston"));
  CHECK_FALSE(has(s, "boston"));  // boston not correct when only Boston is
  CHECK(has(s, "IBM"));
  CHECK_FALSE(has(s, "iBM"));
  CHECK_FALSE(has(s, "Ibm"));
  CHECK(has(s, "X"));
  CHECK(has(s, "3rd"));
  CHECK(has(s, "\xc3\x89t\xc3\xa9"));
  CHECK_FALSE(has(s, "\xc3\xa9t\xc3\xa9"));  // no lowering beyond ASCII
  CHECK_FALSE(has(s, "appl"));
  CHECK_FALSE(has(s, "applea"));
}

TEST_CASE("an entry in both cases answers both") {
  WordList entries;
  entries.push_back("Turkey");
  entries.push_back("turkey");
  Shard s;
  s.build(std::move(entries));
  CHECK(s.keys() == 1);
  CHECK(has(s, "turkey"));
  CHECK(has(s, "Turkey"));
}

TEST_CASE("a shard built by many threads holds every entry") {
  WordList entries;
  for (int i = 0; i < 50000; ++i) entries.push_back((i % 2 ? "W" : "w") + std::to_string(i));
  Shard s;
  s.build(std::move(entries));
  CHECK(s.keys() == 50000);
  int missing = 0;
  for (int i = 0; i < 50000; ++i) missing += has(s, "W" + std::to_string(i)) ? 0 : 1;
  CHECK(missing == 0);
  CHECK(has(s, "w2"));
  CHECK_FALSE(has(s, "w1"));  // only W1 is an entry
}
