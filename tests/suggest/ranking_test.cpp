// SuggestionRanker::bound, what lets ranked lookups skip entries, checked
// against the true score of every pair of short words over a small alphabet
// (vowels, keyboard neighbours, doubled letters, capitals): it must never be
// below it, for the fitted weights and for weights with the signs flipped
// where a sign could break it. And rank_suggestions gives one answer
// whatever the order of the entries it is given.
#include "spellcheck/suggest/ranking.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "spellcheck/common/code_points.hpp"
#include "spellcheck/suggest/noisy_channel.hpp"
#include "spellcheck/suggest/osa_distance.hpp"
#include "spellcheck/suggest/ranked_results.hpp"

#include "all_words.hpp"
#include "folded.hpp"
#include "sanitized.hpp"

using namespace spellcheck;
using spellcheck::testing::kSweepStride;

namespace {

// Checks the bound for every (typo, entry) pair; returns how many pairs
// were scored (an entry spelled like the typo ranks nothing).
size_t check_bounds(const std::vector<std::string>& typos, const std::vector<std::string>& entries,
                    const ChannelWeights& w, uint64_t frequency, const LikelyReplacements* replacements = nullptr) {
  SuggestionRanker ranker(w, replacements);
  const int64_t prior = channel_prior(frequency, 0, w);
  size_t scored = 0, failures = 0;
  for (const std::string& typo : typos) {
    const std::u32string ft = folded(typo);
    ranker.start(typo, 1);
    for (const std::string& entry : entries) {
      const std::u32string fe = folded(entry);
      const int d = osa_distance(ft.data(), ft.size(), fe.data(), fe.size(), 255);
      const std::vector<FoundEntry> found{FoundEntry{entry, frequency, 0, static_cast<uint8_t>(d), {}}};
      const RankedWord r = rank_suggestions(typo, found, 1, w, replacements);
      if (r.best.empty()) continue;
      ++scored;
      const int64_t score = r.best[0].score;
      const bool other_first = !ft.empty() && !fe.empty() && ft[0] != fe[0];
      // Any least distance up to the true one, with the first-letter edit
      // when the first letters differ.
      for (int least = 0; least <= d; ++least)
        if (ranker.bound(prior, least, other_first) < score && failures++ < 5) {
          CAPTURE(typo);
          CAPTURE(entry);
          CAPTURE(least);
          CAPTURE(score);
          CHECK(ranker.bound(prior, least, other_first) >= score);
        }
    }
  }
  CHECK(failures == 0);
  return scored;
}

}  // namespace

TEST_CASE("SuggestionRanker::bound is never below the true score (every pair of short words)") {
  // a/e/i vowels, s/d keyboard neighbours; words up to 4 letters, and the
  // same words capitalised (case-only matches, capital mismatches).
  std::vector<std::string> words = all_words("aesdi", 4);
  const size_t plain = words.size();
  for (size_t i = 1; i < plain; i += 7) {
    std::string t = words[i];
    t[0] = static_cast<char>(t[0] - 32);
    words.push_back(t);
    std::string u = words[i];
    for (auto& c : u) c = static_cast<char>(c - 32);
    words.push_back(u);
  }
  std::vector<std::string> typos;
  for (size_t i = 0; i < words.size(); i += 5 * kSweepStride) typos.push_back(words[i]);

  ChannelWeights fitted{};
  CHECK(check_bounds(typos, words, fitted, 1000) > 100000 / kSweepStride);
  CHECK(check_bounds(typos, words, fitted, 0) > 100000 / kSweepStride);
  // Signs flipped where the bound takes a minimum or maximum.
  ChannelWeights flipped = fitted;
  flipped.first_letter = -1500;
  flipped.capital_mismatch = -2000;
  flipped.keyboard_substitution = -3000;
  flipped.same_sound = -500;
  flipped.near_sound = 800;
  flipped.case_only = -9000;
  flipped.double_deletion = 2000;
  CHECK(check_bounds(typos, words, flipped, 77) > 100000 / kSweepStride);
  // With likely replacements, cheaper than any edit or not.
  LikelyReplacements likely;
  likely.add("s", "ss", LikelyReplacements::anywhere);
  likely.add("ae", "i", LikelyReplacements::anywhere);
  likely.add("d", "aid", LikelyReplacements::at_start);
  likely.add("e", "a", LikelyReplacements::at_end);
  likely.add("i", "e", LikelyReplacements::anywhere);
  for (const int cost : {500, 2500, 20000}) {
    ChannelWeights w = fitted;
    w.likely_replacement = cost;
    CHECK(check_bounds(typos, words, w, 1000, &likely) > 100000 / kSweepStride);
    flipped.likely_replacement = cost;
    CHECK(check_bounds(typos, words, flipped, 77, &likely) > 100000 / kSweepStride);
  }
}

TEST_CASE("rank_suggestions: a likely replacement ranks its word first") {
  LikelyReplacements likely;
  likely.add("ss", "ß", LikelyReplacements::anywhere);
  ChannelWeights w{};
  w.likely_replacement = 1000;
  // strasse: straße is two edits away, strasze one; equal priors.
  const std::vector<FoundEntry> found{FoundEntry{"strasze", 100, 0, 1, {}}, FoundEntry{"straße", 100, 0, 2, {}}};
  CHECK(rank_suggestions("strasse", found, 2, w, &likely).best[0].word == "straße");
  CHECK(rank_suggestions("strasse", found, 2, w).best[0].word == "strasze");
  CHECK(rank_suggestions("Strasse", found, 2, w, &likely).best[0].word == "Straße");
}

TEST_CASE("SuggestionRanker::least_edits is never above the edits' true cost (every pair of short words)") {
  const std::vector<std::string> words = all_words("aesdi", 5);
  ChannelWeights flipped{};
  flipped.keyboard_substitution = -3000;
  flipped.double_deletion = 2000;
  flipped.double_insertion = -3900;
  flipped.transposition = 9000;
  flipped.deletion = 2000;
  for (const ChannelWeights& w : {ChannelWeights{}, flipped}) {
    SuggestionRanker ranker(w);
    size_t pairs = 0, failures = 0, tighter = 0;
    for (size_t t = 0; t < words.size(); t += 3 * kSweepStride) {
      const std::u32string a = folded(words[t]);
      for (const std::string& entry : words) {
        const std::u32string b = folded(entry);
        const EditProfile p = edit_profile(a.data(), a.size(), b.data(), b.size());
        if (p.distance == 0) continue;
        // The edits alone: no sound, no capital, no first-letter term.
        const int64_t cost = -channel_evidence(p, 2, false, w) - static_cast<int64_t>(p.first_letter) * w.first_letter;
        const int64_t least = ranker.least_edits(a.size(), b.size(), p.distance);
        ++pairs;
        tighter += least > p.distance * std::min<int64_t>(w.insertion + std::min(0, w.double_insertion), 2500);
        if (least > cost && failures++ < 5) {
          CAPTURE(words[t]);
          CAPTURE(entry);
          CAPTURE(cost);
          CHECK(least <= cost);
        }
      }
    }
    CHECK(failures == 0);
    CHECK(pairs > 1000000 / kSweepStride);
    CHECK(tighter > pairs / 4);  // the bound says more than distance x the cheapest edit
  }
}

TEST_CASE("rank_suggestions: the same answer whatever the order of the entries") {
  std::mt19937 rng(8);
  const std::vector<std::string> words = all_words("aest", 4);
  for (int round = 0; round < 200; ++round) {
    const std::string typo = words[rng() % words.size()];
    const std::u32string ft = folded(typo);
    std::vector<FoundEntry> found;
    for (int k = 0; k < 30; ++k) {
      const std::string& e = words[rng() % words.size()];
      const std::u32string fe = folded(e);
      const int d = osa_distance(ft.data(), ft.size(), fe.data(), fe.size(), 255);
      found.push_back(FoundEntry{e, rng() % 3 == 0 ? 0 : rng() % 100000, 0, static_cast<uint8_t>(d), {}});
    }
    const size_t top = 1 + rng() % 6;
    const RankedWord want = rank_suggestions(typo, found, top, ChannelWeights{});
    std::shuffle(found.begin(), found.end(), rng);
    const RankedWord got = rank_suggestions(typo, found, top, ChannelWeights{});
    REQUIRE(got.best.size() == want.best.size());
    for (size_t i = 0; i < got.best.size(); ++i) {
      CHECK(got.best[i].word == want.best[i].word);
      CHECK(got.best[i].score == want.best[i].score);
    }
  }
}

TEST_CASE("RankingMerger: the rankings of parts, merged in any order, are the ranking of the whole") {
  // As ranked lookups do: each owner ranks its entries; the asker merges
  // the parts into an empty ranking. Entries spelled in capitals make
  // words that display alike come from different parts, and typos in
  // capitals accepted by one part only.
  std::mt19937 rng(11);
  const std::vector<std::string> words = all_words("aest", 4);
  auto capitalised = [](std::string w) {
    if (!w.empty()) w[0] = static_cast<char>(w[0] - 'a' + 'A');
    return w;
  };
  std::vector<std::string> spellings;  // kept alive: FoundEntry holds views
  spellings.reserve(200 * 30);
  for (int round = 0; round < 200; ++round) {
    std::string typo = words[rng() % words.size()];
    if (rng() % 4 == 0) typo = capitalised(typo);
    const std::u32string ft = folded(typo);
    std::vector<FoundEntry> found;
    for (int k = 0; k < 30; ++k) {
      spellings.push_back(rng() % 5 == 0 ? capitalised(words[rng() % words.size()]) : words[rng() % words.size()]);
      const std::u32string fe = folded(spellings.back());
      const int d = osa_distance(ft.data(), ft.size(), fe.data(), fe.size(), 255);
      found.push_back(
          FoundEntry{spellings.back(), rng() % 3 == 0 ? 0 : rng() % 100000, 0, static_cast<uint8_t>(d), {}});
    }
    const size_t top = 1 + rng() % 6;
    const RankedWord want = rank_suggestions(typo, found, top, ChannelWeights{});
    std::vector<std::vector<FoundEntry>> parts(1 + rng() % 3);
    for (const FoundEntry& f : found) parts[rng() % parts.size()].push_back(f);
    std::shuffle(parts.begin(), parts.end(), rng);
    RankingMerger merger;
    merger.start();
    for (const auto& part : parts) {
      const RankedWord ranked = rank_suggestions(typo, part, top, ChannelWeights{});
      if (ranked.accepted) merger.accept();
      for (const auto& c : ranked.best) merger.add(c.word, c.score, c.distance);
    }
    RankedResults merged(1);
    merger.finish(merged, 0, top);
    const RankedWord got = merged[0];
    CAPTURE(typo);
    CHECK(got.accepted == want.accepted);
    REQUIRE(got.best.size() == want.best.size());
    for (size_t i = 0; i < got.best.size(); ++i) {
      CHECK(got.best[i].word == want.best[i].word);
      CHECK(got.best[i].score == want.best[i].score);
    }
  }
}
