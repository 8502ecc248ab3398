// RankedResults (every word's ranking in flat arrays) and RankingMerger
// (rankings of one word from several places, merged), against a plain
// union of the parts.
#include "spellcheck/suggest/ranked_results.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "spellcheck/suggest/ranking.hpp"

using namespace spellcheck;

namespace {

std::string show(const RankedWord& r) {
  std::string s = r.accepted ? "accepted:" : ":";
  for (const auto& c : r.best) s += " " + c.word + "/" + std::to_string(c.score) + "/" + std::to_string(c.distance);
  return s;
}

// A ranking as the ranker gives it: distinct words, best first (score,
// then the word byte-wise), at most top.
RankedWord random_ranking(std::mt19937& rng, size_t top) {
  const char* words[] = {"a", "b", "ab", "ba", "abc", "B", "\xC3\xA9", "aa"};
  std::map<std::string, int64_t> best;
  const size_t n = rng() % 7;
  for (size_t k = 0; k < n; ++k) {
    const std::string w = words[rng() % 8];
    const int64_t score = -static_cast<int64_t>(rng() % 6) * 100;
    if (!best.count(w) || best[w] < score) best[w] = score;
  }
  RankedWord r;
  for (const auto& [w, score] : best) r.best.push_back(RankedCandidate{w, score, static_cast<uint8_t>(w.size() % 3)});
  std::sort(r.best.begin(), r.best.end(), [](const RankedCandidate& x, const RankedCandidate& y) {
    return x.score != y.score ? x.score > y.score : x.word < y.word;
  });
  if (r.best.size() > top) r.best.resize(top);
  r.accepted = rng() % 15 == 0;
  if (r.accepted) r.best.clear();
  return r;
}

// The merge spelled out: every part's words, each at its best score (the
// earlier part's on a tie), best first (score, then the word), cut to top;
// accepted, with no candidates, when any part is.
RankedWord union_of(const std::vector<RankedWord>& parts, size_t top) {
  RankedWord u;
  std::map<std::string, RankedCandidate> best;
  for (const auto& part : parts) {
    u.accepted = u.accepted || part.accepted;
    for (const auto& c : part.best) {
      const auto [it, fresh] = best.emplace(c.word, c);
      if (!fresh && c.score > it->second.score) it->second = c;
    }
  }
  if (u.accepted) return u;
  for (const auto& [word, c] : best) u.best.push_back(c);
  std::sort(u.best.begin(), u.best.end(), [](const RankedCandidate& x, const RankedCandidate& y) {
    return x.score != y.score ? x.score > y.score : x.word < y.word;
  });
  if (u.best.size() > top) u.best.resize(top);
  return u;
}

}  // namespace

TEST_CASE("RankedResults: rankings in, the same rankings out, reordered") {
  std::mt19937 rng(3);
  std::vector<RankedWord> words(300);
  for (auto& w : words) w = random_ranking(rng, 5);
  const RankedResults results(words);
  REQUIRE(results.size() == words.size());
  for (size_t i = 0; i < words.size(); ++i) CHECK(show(results[i]) == show(words[i]));
  // Word j to order[j].
  std::vector<uint32_t> order(words.size());
  std::iota(order.begin(), order.end(), 0U);
  std::shuffle(order.begin(), order.end(), rng);
  RankedResults moved(words);
  moved.reorder(order);
  for (size_t j = 0; j < words.size(); ++j) CHECK(show(moved[order[j]]) == show(words[j]));
  CHECK(RankedResults(3)[1].best.empty());  // a word nobody answered for: no candidates
}

TEST_CASE("RankedResults: room reserved, too little or more than the system gives, changes nothing") {
  std::mt19937 rng(5);
  std::vector<RankedWord> words(200);
  for (auto& w : words) w = random_ranking(rng, 5);
  const size_t absurd = std::numeric_limits<size_t>::max() / 2;  // refused: a hint, not an error
  for (const auto& [candidates, text] : {std::pair<size_t, size_t>{0, 0}, {3, 7}, {2000, 4000}, {absurd, absurd}}) {
    RankedResults r(words.size());
    r.reserve(candidates, text);
    for (size_t i = 0; i < words.size(); ++i) {
      if (words[i].accepted) {
        r.set_accepted(i);
        continue;
      }
      r.start(i);
      for (const RankedCandidate& c : words[i].best) r.add(i, c.word, c.score, c.distance);
      if (i == 100) r.reserve(candidates, text);  // again, half-way: what is there stays
    }
    for (size_t i = 0; i < words.size(); ++i) CHECK(show(r[i]) == show(words[i]));
  }
}

TEST_CASE("RankingMerger: parts merged in any order give the ranking of their union") {
  std::mt19937 rng(17);
  RankingMerger merger;
  RankedResults out(4);
  size_t with_duplicates = 0;
  for (int round = 0; round < 3000; ++round) {
    const size_t top = 1 + rng() % 5;
    std::vector<RankedWord> parts(1 + rng() % 3);
    for (auto& part : parts) part = random_ranking(rng, top);
    const RankedWord want = union_of(parts, top);
    std::shuffle(parts.begin(), parts.end(), rng);
    // Half the time one part comes from results already made (the sound
    // pass merges into the bucket pass's results).
    const size_t i = rng() % 4;
    merger.start();
    if (round % 2 == 0) {
      const RankedResults earlier({parts[0]});
      merger.add(earlier, 0);
    } else {
      for (const auto& c : parts[0].best) merger.add(c.word, c.score, c.distance);
      if (parts[0].accepted) merger.accept();
    }
    for (size_t k = 1; k < parts.size(); ++k) {
      for (const auto& c : parts[k].best) merger.add(c.word, c.score, c.distance);
      if (parts[k].accepted) merger.accept();
    }
    merger.finish(out, i, top);
    std::map<std::string, int> seen;
    for (const auto& part : parts)
      for (const auto& c : part.best) with_duplicates += ++seen[c.word] == 2;
    CAPTURE(round);
    CHECK(show(out[i]) == show(want));
  }
  CHECK(with_duplicates > 500);  // the same word from two parts, at different scores, is common here
}
