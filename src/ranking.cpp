#include "spellcheck/ranking.hpp"

#include <algorithm>
#include <cmath>

#include "spellcheck/code_points.hpp"
#include "spellcheck/osa_distance.hpp"

namespace spellcheck {

namespace {

// Keeps the best `top` distinct words, best first.
class TopWords {
 public:
  explicit TopWords(size_t top) : top_(top) {}
  static bool better(const RankedCandidate& x, const RankedCandidate& y) {
    if (x.score != y.score) return x.score > y.score;
    return x.word < y.word;
  }
  void offer(RankedCandidate&& c) {
    for (auto& b : best_)
      if (b.word == c.word) {
        if (better(c, b)) b = std::move(c);
        std::sort(best_.begin(), best_.end(), better);
        return;
      }
    if (best_.size() == top_ && !better(c, best_.back())) return;
    best_.push_back(std::move(c));
    std::sort(best_.begin(), best_.end(), better);
    if (best_.size() > top_) best_.pop_back();
  }
  bool full() const { return best_.size() == top_; }
  int64_t worst() const { return best_.back().score; }
  std::vector<RankedCandidate> take() { return std::move(best_); }

 private:
  size_t top_;
  std::vector<RankedCandidate> best_;
};

}  // namespace

RankedWord rank_suggestions(std::string_view typo, const std::vector<FoundEntry>& found, size_t top,
                            const ChannelWeights& w) {
  RankedWord out;
  if (top == 0) return out;
  thread_local std::vector<char32_t> raw, folded, entry, folded_entry, sound_a, sound_b;
  thread_local std::vector<std::pair<int64_t, uint32_t>> order;  // (optimistic score, found index)
  raw.resize(typo.size() + 1);
  folded.resize(typo.size() + 1);
  const size_t n = decode_utf8(typo, raw.data());
  for (size_t i = 0; i < n; ++i) folded[i] = fold_case(raw[i]);
  const CasePattern pattern = case_pattern(raw.data(), n);
  if (pattern == CasePattern::upper || pattern == CasePattern::title)
    for (const FoundEntry& f : found)
      if (f.distance == 0) {
        out.accepted = true;
        return out;
      }
  // Branch and bound: an optimistic score per entry (its prior, the
  // cheapest edit for each unit of distance, the biggest sound bonus),
  // then exact scores in that order until no optimistic one can beat the
  // top-th exact one. Exact scoring (the alignment, the phonetic keys) is
  // most of the cost, and most entries never need it.
  const int64_t cheapest_edit =
      std::min({static_cast<int64_t>(w.transposition),
                static_cast<int64_t>(w.substitution) + std::min(0, w.keyboard_substitution) +
                    std::min(0, w.vowel_substitution),
                static_cast<int64_t>(w.insertion) + std::min(0, w.double_insertion),
                static_cast<int64_t>(w.deletion) + std::min(0, w.double_deletion)});
  const int64_t best_extra = std::max({0, w.same_sound, w.near_sound}) + std::max(0, -w.first_letter) +
                             std::max(0, -w.capital_mismatch);
  order.clear();
  for (uint32_t i = 0; i < found.size(); ++i) {
    const FoundEntry& f = found[i];
    int64_t s = channel_prior(f.frequency, f.collection_count, w) + best_extra - f.distance * cheapest_edit;
    if (f.distance == 0) s += w.case_only;
    order.emplace_back(s, i);
  }
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  const std::string typo_sound = phonetic_key(folded.data(), n);
  sound_a.assign(typo_sound.begin(), typo_sound.end());
  TopWords best(top);
  for (const auto& [optimistic, i] : order) {
    if (best.full() && optimistic < best.worst()) break;
    const FoundEntry& f = found[i];
    entry.resize(f.spelling.size() + 1);
    const size_t m = decode_utf8(f.spelling, entry.data());
    folded_entry.resize(m + 1);
    bool entry_capital = false;
    for (size_t k = 0; k < m; ++k) {
      entry_capital = entry_capital || is_upper(entry[k]);
      folded_entry[k] = fold_case(entry[k]);
    }
    const bool capital_mismatch = pattern == CasePattern::lower && entry_capital;
    const EditProfile edits = edit_profile(folded.data(), n, folded_entry.data(), m);
    if (f.sound_key.empty() && m > 0) {
      const std::string sound = phonetic_key(folded_entry.data(), m);
      sound_b.assign(sound.begin(), sound.end());
    } else {
      sound_b.assign(f.sound_key.begin(), f.sound_key.end());
    }
    const int sound_distance = osa_distance(sound_a.data(), sound_a.size(), sound_b.data(), sound_b.size(), 2);
    RankedCandidate c;
    c.score = channel_score(edits, sound_distance, f.frequency, f.collection_count, capital_mismatch, w);
    if (best.full() && c.score < best.worst()) continue;  // spelled only if it can enter the top
    spell_in_case(entry.data(), m, pattern, c.word);
    if (c.word == typo) continue;  // the typo itself is no suggestion
    c.distance = f.distance;
    best.offer(std::move(c));
  }
  out.best = best.take();
  return out;
}

void merge_ranked(RankedWord& into, RankedWord&& part, size_t top) {
  into.accepted = into.accepted || part.accepted;
  TopWords best(top);
  for (auto& c : into.best) best.offer(std::move(c));
  for (auto& c : part.best) best.offer(std::move(c));
  into.best = best.take();
  if (into.accepted) into.best.clear();
}

}  // namespace spellcheck
