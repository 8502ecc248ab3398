#include "spellcheck/suggest/judge.hpp"

#include <doctest/doctest.h>

#include "spellcheck/common/word_hash.hpp"

using namespace spellcheck;

namespace {
Routed routed_of(std::vector<std::string> words, std::vector<uint64_t> values = {}) {
  Routed r;
  for (const auto& w : words) {
    r.words.push_back(w);
    r.hashes.push_back(word_hash(w));
  }
  if (!values.empty()) {
    r.values.resize(2);
    for (size_t i = 0; i < values.size(); ++i) r.values[i % 2].push_back(values[i]);
  }
  return r;
}
}  // namespace

TEST_CASE("equal words are grouped in order of first occurrence") {
  const Routed r = routed_of({"b", "a", "b", "c", "a", "b"});
  const Groups g = group_equal_words(r.words, r.hashes);
  CHECK(g.first == std::vector<uint32_t>{0, 1, 3});
  CHECK(g.group == std::vector<uint32_t>{0, 1, 0, 2, 1, 0});
}

TEST_CASE("each distinct word is judged once; counts summed, first position kept") {
  WordList entries;
  entries.push_back("apple");
  Shard shard;
  shard.build(std::move(entries));
  // {occurrences, first position} per word
  const Routed r = routed_of({"Apple", "aple", "apple", "aple", "APPLE"}, {1, 50, 2, 7, 1, 1, 3, 4, 1, 9});
  const Judged j = judge(shard, r);
  CHECK(j.distinct == 4);
  REQUIRE(j.misspelled.size() == 2);
  CHECK(j.misspelled[0] == "aple");
  CHECK(j.occurrences[0] == 5);
  CHECK(j.first_position[0] == 4);
  CHECK(j.misspelled[1] == "APPLE");
  CHECK(j.hashes[1] == word_hash("APPLE"));
}
