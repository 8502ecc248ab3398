#include "spellcheck/suggest/compound_suggestions.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "spellcheck/common/code_points.hpp"
#include "spellcheck/common/utf8.hpp"
#include "spellcheck/suggest/osa_distance.hpp"

namespace spellcheck {

namespace {

// One cut of a word: the byte where its right side starts.
struct Cut {
  uint32_t word;
  uint32_t at;
};

}  // namespace

void add_compound_suggestions(const mpi::Comm& comm, HunspellJudge& judge, const RankedIndex& index,
                              const WordList& words, const ChannelWeights& weights, size_t top, size_t min_part,
                              RankedResults& results, CompoundCounts& counts) {
  // 1. Every cut leaving min_part code points or more on both sides.
  std::vector<Cut> cuts;
  std::vector<std::string_view> halves;  // left, right of each cut
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    std::vector<size_t> starts;
    for (size_t b = 0; b < w.size(); b += utf8_length_at(w, b)) starts.push_back(b);
    for (size_t k = min_part; k + min_part <= starts.size(); ++k) {
      cuts.push_back(Cut{static_cast<uint32_t>(i), static_cast<uint32_t>(starts[k])});
      halves.push_back(w.substr(0, starts[k]));
      halves.push_back(w.substr(starts[k]));
    }
  }
  const std::vector<uint8_t> ok = judge.check(halves);
  counts.parts_checked += halves.size();

  // 2. The wrong side of each cut whose other side is a word, looked up
  // once per distinct string.
  WordList to_fix;
  std::unordered_map<std::string_view, uint32_t> fix_index;
  std::vector<int64_t> fix_of(cuts.size(), -1);
  for (size_t c = 0; c < cuts.size(); ++c) {
    const bool left_ok = ok[2 * c] != 0, right_ok = ok[2 * c + 1] != 0;
    if (left_ok == right_ok) continue;
    const std::string_view wrong = left_ok ? halves[2 * c + 1] : halves[2 * c];
    auto [it, fresh] = fix_index.emplace(wrong, static_cast<uint32_t>(to_fix.size()));
    if (fresh) to_fix.push_back(wrong);
    fix_of[c] = it->second;
  }
  RankedCounts part_counts;
  const RankedResults fixed = index.suggest(comm, to_fix, weights, part_counts);
  counts.parts_looked_up += to_fix.size();

  // 3. Each suggestion put back in its half's place; the joined strings
  // judged.
  struct Joined {
    uint32_t word;
    int64_t score;
    uint8_t distance;
  };
  std::vector<std::string> joined;
  std::vector<Joined> meta;
  for (size_t c = 0; c < cuts.size(); ++c) {
    if (fix_of[c] < 0) continue;
    const bool left_ok = ok[2 * c] != 0;
    const size_t f = static_cast<size_t>(fix_of[c]);
    for (size_t k = 0; k < fixed.candidates(f); ++k) {
      const std::string_view s = fixed.word(f, k);
      std::string j =
          left_ok ? std::string(halves[2 * c]) + std::string(s) : std::string(s) + std::string(halves[2 * c + 1]);
      joined.push_back(std::move(j));
      meta.push_back(Joined{cuts[c].word, fixed.score(f, k), fixed.distance(f, k)});
    }
  }
  std::vector<std::string_view> joined_views(joined.begin(), joined.end());
  const std::vector<uint8_t> joined_ok = judge.check(joined_views);
  counts.joined_checked += joined.size();

  // 4. Merged into the rankings.
  std::vector<std::vector<size_t>> by_word(words.size());
  for (size_t j = 0; j < joined.size(); ++j)
    if (joined_ok[j] && joined[j] != words[meta[j].word]) by_word[meta[j].word].push_back(j);
  RankedResults merged(words.size());
  RankingMerger merger;
  for (size_t i = 0; i < words.size(); ++i) {
    merger.start();
    if (i < results.size()) merger.add(results, i);
    auto& mine = by_word[i];
    std::sort(mine.begin(), mine.end(), [&](size_t a, size_t b) {
      if (meta[a].score != meta[b].score) return meta[a].score > meta[b].score;
      return joined[a] < joined[b];
    });
    for (size_t j : mine) merger.add(joined[j], meta[j].score, meta[j].distance);
    counts.found += mine.size();
    merger.finish(merged, i, top);
  }
  results = std::move(merged);
}

}  // namespace spellcheck

namespace spellcheck {

void add_edit_suggestions(HunspellJudge& judge, const WordList& words, const ChannelWeights& weights, size_t top,
                          RankedResults& results, CompoundCounts& counts) {
  WordList hard;
  std::vector<uint32_t> which;
  for (size_t i = 0; i < words.size(); ++i) {
    bool near = false;
    for (size_t k = 0; k < results.candidates(i) && !near; ++k) near = results.distance(i, k) <= 1;
    if (near || results.accepted(i)) continue;
    hard.push_back(words[i]);
    which.push_back(static_cast<uint32_t>(i));
  }
  counts.edit_words += hard.size();
  const std::vector<std::vector<std::string>> found = judge.candidates(hard, size_t{1} << 20);
  std::vector<char32_t> a, b;
  std::vector<int> to_word(words.size(), -1);
  for (size_t h = 0; h < which.size(); ++h) to_word[which[h]] = static_cast<int>(h);
  RankedResults merged(words.size());
  RankingMerger merger;
  std::vector<FoundEntry> entries;
  for (size_t i = 0; i < words.size(); ++i) {
    merger.start();
    merger.add(results, i);
    if (to_word[i] >= 0) {
      const auto& cands = found[static_cast<size_t>(to_word[i])];
      counts.edit_found += cands.size();
      const std::string_view typo = words[i];
      a.resize(typo.size() + 1);
      const size_t n = decode_utf8(typo, a.data());
      for (char32_t& c : std::span<char32_t>(a.data(), n)) c = fold_case(c);
      entries.clear();
      for (const std::string& c : cands) {
        b.resize(c.size() + 1);
        const size_t m = decode_utf8(c, b.data());
        for (char32_t& x : std::span<char32_t>(b.data(), m)) x = fold_case(x);
        FoundEntry f;
        f.spelling = c;
        f.distance = static_cast<uint8_t>(osa_distance(a.data(), n, b.data(), m, 2));
        entries.push_back(f);
      }
      const RankedWord ranked = rank_suggestions(typo, entries, top, weights);
      for (const RankedCandidate& r : ranked.best) merger.add(r.word, r.score, r.distance);
    }
    merger.finish(merged, i, top);
  }
  results = std::move(merged);
}

}  // namespace spellcheck
