// Known words (--per-document's dictionary keys by hash): SPEC's case rule,
// the batch lookup equal to single ones, and the test knob that makes
// hashes collide.
#include "spellcheck/input/known_words.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "spellcheck/common/word_hash.hpp"

using namespace spellcheck;

namespace {

// The set for a dictionary's entries, as main builds it: every entry's key,
// and the keys of the entries that equal them.
KnownWords known_of(const std::vector<std::string>& entries) {
  std::vector<uint64_t> keys, exact;
  for (const std::string& e : entries) {
    keys.push_back(word_hash(e));
    if (!is_ascii_upper(static_cast<unsigned char>(e[0]))) exact.push_back(word_hash(e));
  }
  return KnownWords(keys, exact);
}

}  // namespace

TEST_CASE("SPEC's rule: a capital may be lowered, a lowercase word must be an entry") {
  const KnownWords known = known_of({"apple", "Paris", "x86"});
  CHECK(known.probably_correct("apple"));
  CHECK(known.probably_correct("Apple"));
  CHECK(known.probably_correct("Paris"));
  CHECK_FALSE(known.probably_correct("paris"));
  CHECK(known.probably_correct("x86"));
  CHECK_FALSE(known.probably_correct("APPLE"));
  CHECK_FALSE(known.probably_correct("appel"));
  CHECK_FALSE(known.probably_correct(""));
  CHECK_FALSE(KnownWords().probably_correct("apple"));
}

TEST_CASE("the batch lookup gives what single lookups give") {
  std::vector<std::string> entries, words;
  for (int i = 0; i < 5000; ++i) {
    entries.emplace_back("w");
    entries.back() += std::to_string(i * 3);
    words.emplace_back(i % 3 ? "w" : "W");
    words.back() += std::to_string(i * 2);
  }
  const KnownWords known = known_of(entries);
  std::vector<std::string_view> views(words.begin(), words.end());
  views.push_back("");
  std::vector<uint8_t> out(views.size(), 7);
  known.probably_correct(views.data(), views.size(), out.data());
  size_t yes = 0;
  for (size_t i = 0; i < views.size(); ++i) {
    CAPTURE(i);
    CHECK(out[i] == known.probably_correct(views[i]));
    yes += out[i];
  }
  CHECK(yes > 1000);
}

TEST_CASE("SPELLCHECK_KNOWN_HASH_BITS keeps so few bits that misspelled words look known") {
  ::setenv("SPELLCHECK_KNOWN_HASH_BITS", "2", 1);
  const KnownWords colliding = known_of({"apple", "pear", "plum", "fig", "kiwi"});
  ::unsetenv("SPELLCHECK_KNOWN_HASH_BITS");
  int looks_known = 0;
  for (const char* w : {"aple", "peer", "plumm", "figg", "kiwii", "grape", "lemon"})
    looks_known += colliding.probably_correct(w);
  CHECK(looks_known >= 4);  // at most 4 distinct hashes: most words hit one
  CHECK_FALSE(known_of({"apple"}).probably_correct("aple"));
}
