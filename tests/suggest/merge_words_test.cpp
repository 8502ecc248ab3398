// Words written apart (merge_words.hpp) where no ranks are needed: which
// correct words may be joins. The collective part (cuts' parts asked of
// their owners, pairs counted at theirs) runs in tests/context.sh against
// the serial reference.
#include "spellcheck/suggest/merge_words.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace spellcheck;

namespace {

std::vector<std::string> joins_of(const std::vector<std::string>& words) {
  WordList list;
  std::vector<uint64_t> counts;
  for (const std::string& w : words) {
    list.push_back(w);
    counts.push_back(w.size());
  }
  JoinWords joins;
  joins.add(list, counts, MergeParams{});
  std::vector<std::string> out;
  for (size_t i = 0; i < joins.words.size(); ++i) {
    out.emplace_back(joins.words[i]);
    CHECK(joins.counts[i] == joins.words[i].size());  // each word's own count kept
  }
  return out;
}

}  // namespace

TEST_CASE("JoinWords: words with a cut into two parts of two letters or more") {
  // Four letters or more, cut between letters; a capital first letter is a
  // sentence's start.
  CHECK(joins_of({"without", "into", "Something"}) == std::vector<std::string>{"without", "into", "Something"});
  // Too short for two parts of two letters ("a lone": one letter).
  CHECK(joins_of({"ago", "a", "it"}).empty());
  // No cut between two letters with two on each side: "it's", "ab1c";
  // a cut inside a UTF-8 sequence is no cut, a letter is a sequence
  // ("ééé" is 6 bytes, "éééé" is cut in the middle).
  CHECK(joins_of({"it's", "ab1c", "éé", "ééé"}).empty());
  CHECK(joins_of({"éééé"}) == std::vector<std::string>{"éééé"});
  // Identifiers (a capital inside) are written as one on purpose.
  CHECK(joins_of({"WebServer", "isTrue"}).empty());
  // Longer than max_bytes (30): not cut.
  CHECK(joins_of({std::string(31, 'a')}).empty());
  CHECK(joins_of({std::string(30, 'a')}).size() == 1);
}
