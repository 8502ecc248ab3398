#include "spellcheck/ranking.hpp"

#include <algorithm>

#include "spellcheck/code_points.hpp"
#include "spellcheck/osa_distance.hpp"

namespace spellcheck {

RankedWord rank_suggestions(std::string_view typo, const std::vector<FoundEntry>& found, size_t top,
                            const ChannelWeights& weights) {
  RankedWord out;
  std::vector<char32_t> raw(typo.size() + 1), folded(typo.size() + 1);
  const size_t n = decode_utf8(typo, raw.data());
  for (size_t i = 0; i < n; ++i) folded[i] = fold_case(raw[i]);
  const CasePattern pattern = case_pattern(raw.data(), n);
  if (pattern == CasePattern::upper || pattern == CasePattern::title)
    for (const FoundEntry& f : found)
      if (f.distance == 0) {
        out.accepted = true;
        return out;
      }
  const std::string typo_sound = phonetic_key(folded.data(), n);
  std::vector<char32_t> entry;
  std::vector<RankedCandidate> all;
  all.reserve(found.size());
  for (const FoundEntry& f : found) {
    entry.resize(f.spelling.size() + 1);
    const size_t m = decode_utf8(f.spelling, entry.data());
    std::vector<char32_t> folded_entry(entry.begin(), entry.begin() + static_cast<std::ptrdiff_t>(m));
    for (auto& c : folded_entry) c = fold_case(c);
    const EditProfile edits = edit_profile(folded.data(), n, folded_entry.data(), m);
    const std::string sound = phonetic_key(folded_entry.data(), m);
    std::vector<char32_t> a(typo_sound.begin(), typo_sound.end()), b(sound.begin(), sound.end());
    const int sound_distance = osa_distance(a.data(), a.size(), b.data(), b.size(), 2);
    RankedCandidate c;
    spell_in_case(entry.data(), m, pattern, c.word);
    c.score = channel_score(edits, sound_distance, f.frequency, f.collection_count, weights);
    c.distance = f.distance;
    all.push_back(std::move(c));
  }
  std::sort(all.begin(), all.end(), [](const RankedCandidate& x, const RankedCandidate& y) {
    if (x.word != y.word) return x.word < y.word;
    return x.score > y.score;
  });
  all.erase(std::unique(all.begin(), all.end(),
                        [](const RankedCandidate& x, const RankedCandidate& y) { return x.word == y.word; }),
            all.end());
  // The typo itself is no suggestion (a word in mixed case whose folded form
  // is an entry is suggested in the entry's case, never as it was typed).
  all.erase(std::remove_if(all.begin(), all.end(), [&](const RankedCandidate& x) { return x.word == typo; }),
            all.end());
  auto better = [](const RankedCandidate& x, const RankedCandidate& y) {
    if (x.score != y.score) return x.score > y.score;
    return x.word < y.word;
  };
  const size_t keep = std::min(top, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(), better);
  all.resize(keep);
  out.best = std::move(all);
  return out;
}

}  // namespace spellcheck
