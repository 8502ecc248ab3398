// Run-together words (split_words.hpp) where no ranks are needed: a
// split's score (the pair's share of the collection in the frequency
// list's scale, a left-out space) and how splits join a ranking. The
// collective part (the parts asked of their owners) runs in
// tests/context.sh against the serial reference.
#include "spellcheck/suggest/split_words.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "spellcheck/input/token_observer.hpp"

using namespace spellcheck;
using detail::pair_key;

namespace {

SplitParams params_with(uint64_t frequency_total) {
  SplitParams p;
  p.frequency_total = frequency_total;
  p.top = 3;
  return p;
}

uint64_t pair_of(std::string_view left, std::string_view right) {
  return pair_key(context_token_hash(left), context_token_hash(right));
}

}  // namespace

TEST_CASE("split_score: the pair's expected count in the list's corpus, its count, a left-out space") {
  const SplitParams p = params_with(1'000'000);
  const ChannelWeights& w = p.weights;
  // 5 of 1000 tokens: 5000 expected in a list of a million.
  const int64_t want = std::llround(1000.0 * w.prior_weight * std::log(5000.0 + w.prior_floor)) +
                       std::llround(1000.0 * w.collection_weight * std::log(6.0)) - w.insertion + w.same_sound;
  CHECK(split_score(5, 1000, p) == want);
  // A commoner pair scores higher; no frequency list: the floor's prior.
  CHECK(split_score(50, 1000, p) > split_score(5, 1000, p));
  const SplitParams none = params_with(0);
  CHECK(split_score(5, 1000, none) == std::llround(1000.0 * w.prior_weight * std::log(w.prior_floor)) +
                                          std::llround(1000.0 * w.collection_weight * std::log(6.0)) - w.insertion +
                                          w.same_sound);
}

TEST_CASE("with_splits: a split the collection has goes before the first candidate scoring less, if often apart") {
  WordList words;
  words.push_back("inthe");
  words.push_back("alot");
  words.push_back("zzq");
  RankedResults ranked(3);
  ranked.start(0);
  ranked.add(0, "lithe", 9000, 2);
  ranked.start(1);
  for (const char* c : {"allot", "slot", "aloe"}) ranked.add(1, c, 20000, 1);
  ranked.set_accepted(2);
  const SplitParams p = params_with(1'000'000);
  detail::CountTable counts;
  counts.add(pair_of("in", "the"), 40);
  counts.add(pair_of("a", "lot"), 30);
  const std::vector<uint64_t> occurrences{1, 1, 1};
  const std::vector<WordSplit> splits{
      {0, 1, pair_of("i", "nthe")}, {0, 2, pair_of("in", "the")}, {1, 1, pair_of("a", "lot")}};
  uint64_t offered = 0;
  const RankedResults out = with_splits(words, ranked, splits, counts, occurrences, 1000, p, offered);
  CHECK(offered == 2);
  REQUIRE(out.candidates(0) == 2);  // (the pair "i nthe" never occurs)
  CHECK(out.word(0, 0) == "in the");
  CHECK(out.score(0, 0) == split_score(40, 1000, p));
  CHECK(out.distance(0, 0) == 1);
  CHECK(out.word(0, 1) == "lithe");
  // Scoring below every candidate, the split would come fourth: the
  // ranking keeps top (3), or what it had.
  REQUIRE(split_score(30, 1000, p) < 20000);
  CHECK(out.candidates(1) == 3);
  CHECK(out.word(1, 2) == "aloe");
  CHECK(out.accepted(2));
  // Written as one 5 times, apart only 40 (under apart_ratio 10 x 5): its
  // spelling on purpose, not split.
  const std::vector<uint64_t> often{5, 1, 1};
  offered = 0;
  const RankedResults kept = with_splits(words, ranked, splits, counts, often, 1000, p, offered);
  CHECK(offered == 1);
  REQUIRE(kept.candidates(0) == 1);
  CHECK(kept.word(0, 0) == "lithe");
}
