#include "spellcheck/suggest/ranking.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "spellcheck/common/code_points.hpp"
#include "spellcheck/suggest/osa_distance.hpp"

namespace spellcheck {

// Keeps best_, best first, the best `top` distinct words: offered in any
// order, the same words end up there.
void SuggestionRanker::keep(std::string_view word, int64_t score, uint8_t distance) {
  // best_ is in `better` order, a strict order of distinct words: a word
  // already there moves up when it improves; a new one goes in its place.
  // One that is no better than the last changes nothing (a word there
  // scores at least as well as the last).
  if (top_ == 0) return;
  auto better_than = [&](const StoredCandidate& k) {  // (score, word) ahead of k
    return score != k.score ? score > k.score : word < kept_word(k);
  };
  if (best_.size() == top_ && !better_than(best_.back())) return;
  // (Where no two offers spell alike, no word is looked for.)
  for (auto it = best_.begin(); !distinct_words_ && it != best_.end(); ++it)
    if (kept_word(*it) == word) {
      if (better_than(*it)) {
        it->score = score;  // (the same word: its spelling stays)
        it->distance = distance;
        const StoredCandidate moved = *it;
        std::rotate(std::upper_bound(best_.begin(), it, moved,
                                     [&](const StoredCandidate& x, const StoredCandidate& y) { return better(x, y); }),
                    it, it + 1);
      }
      return;
    }
  const StoredCandidate added = StoredCandidate::append(words_, word, score, distance);
  best_.insert(std::upper_bound(best_.begin(), best_.end(), added,
                                [&](const StoredCandidate& x, const StoredCandidate& y) { return better(x, y); }),
               added);
  if (best_.size() > top_) best_.pop_back();
}

SuggestionRanker::SuggestionRanker(const ChannelWeights& w, const LikelyReplacements* replacements)
    : w_(w), replacements_(replacements && !replacements->empty() ? replacements : nullptr) {
  replacement_cost_ = std::max(0, w.likely_replacement);
  // The cheapest edit of each kind (negative costs count as none), the
  // cheapest per unit of distance, and the biggest bonus any entry can get:
  // bound() adds the last and takes the cheapest edit per unit.
  cheapest_insertion_ = std::max<int64_t>(0, static_cast<int64_t>(w.insertion) + std::min(0, w.double_insertion));
  cheapest_deletion_ = std::max<int64_t>(0, static_cast<int64_t>(w.deletion) + std::min(0, w.double_deletion));
  const int64_t cheapest_in_place =
      std::max<int64_t>(0, std::min<int64_t>(w.transposition, static_cast<int64_t>(w.substitution) +
                                                                  std::min(0, w.keyboard_substitution) +
                                                                  std::min(0, w.vowel_substitution)));
  cheapest_change_ = std::min(cheapest_in_place, (cheapest_insertion_ + cheapest_deletion_) / 2);
  cheapest_edit_ = std::min({cheapest_in_place, cheapest_insertion_, cheapest_deletion_});
  best_extra_ =
      std::max({0, w.same_sound, w.near_sound}) + std::max(0, -w.first_letter) + std::max(0, -w.capital_mismatch);
  case_only_ = std::max(0, w.case_only);      // bound(prior, 0) holds for any distance
  first_edit_ = std::max(0, w.first_letter);  // best_extra_ already counts a negative one
}

int64_t SuggestionRanker::least_edits(size_t n, size_t m, int d) const {
  // An alignment at distance d has insertions - deletions = m - n, so
  // |n - m| of its edits change the length one way, and the other
  // d - |n - m| are substitutions, transpositions or pairs of an insertion
  // and a deletion. Words past edit_profile's table are scored as
  // substitutions only: the plain bound.
  const size_t gap = n > m ? n - m : m - n;
  if (n > kOsaStackLength || m > kOsaStackLength || gap > static_cast<size_t>(d)) return d * cheapest_edit_;
  return static_cast<int64_t>(gap) * (n > m ? cheapest_deletion_ : cheapest_insertion_) +
         static_cast<int64_t>(static_cast<size_t>(d) - gap) * cheapest_change_;
}

void SuggestionRanker::start(std::string_view typo, size_t top, bool distinct_entries, bool case_accepts) {
  typo_ = typo;
  top_ = top;
  best_.clear();
  words_.clear();
  entry_.resize(typo.size() + 1);
  folded_.resize(typo.size() + 1);
  n_ = decode_utf8(typo, entry_.data());
  for (size_t i = 0; i < n_; ++i) folded_[i] = fold_case(entry_[i]);
  pattern_ = case_pattern(entry_.data(), n_);
  const bool respelled = pattern_ == CasePattern::upper || pattern_ == CasePattern::title;
  accepts_by_case_ = case_accepts && respelled;
  // Other patterns spell an entry as it is, and entries are distinct; in
  // capitals or title case two entries may be spelled alike.
  distinct_words_ = distinct_entries && !respelled;
  accepted_ = top == 0;  // nothing to rank
  typo_sound_ = phonetic_key(folded_.data(), n_);
}

void SuggestionRanker::offer(const FoundEntry& f, int64_t prior) {
  if (accepted_) return;
  if (f.distance == 0 && accepts_by_case_) {
    accepted_ = true;
    best_.clear();
    return;
  }
  if (full() && bound(prior, f.distance) < worst()) return;
  auto spelling = [&] { return f.spellings ? (*f.spellings)[f.index] : f.spelling; };
  const char32_t* folded = f.folded;
  size_t m = f.folded_size;
  bool entry_capital = f.has_capital;
  bool decoded = false;
  if (folded == nullptr) {
    entry_.resize(spelling().size() + 1);
    m = decode_utf8(spelling(), entry_.data());
    folded_entry_.resize(m + 1);
    entry_capital = false;
    for (size_t k = 0; k < m; ++k) {
      entry_capital = entry_capital || is_upper(entry_[k]);
      folded_entry_[k] = fold_case(entry_[k]);
    }
    folded = folded_entry_.data();
    decoded = true;
  }
  const bool capital_mismatch = pattern_ == CasePattern::lower && entry_capital;
  int sound_distance = f.sound_distance;  // only 0, 1 or more counts (same_sound, near_sound)
  if (sound_distance < 0) {
    std::string computed_sound;
    if (f.sound_key.empty() && m > 0) computed_sound = phonetic_key(folded, m);
    const std::string_view sound_b = computed_sound.empty() ? f.sound_key : computed_sound;
    sound_distance = osa_distance_within_one(typo_sound_.data(), typo_sound_.size(), sound_b.data(), sound_b.size());
  }
  // One likely replacement away: scored as that, when cheaper than its edits.
  const bool replaced = replacements_ && f.distance > 0 && replacements_->one_step(folded_.data(), n_, folded, m);
  // The alignment is most of the cost: skipped when even the cheapest edits
  // at this distance, with the sound and capital terms known exactly,
  // cannot enter the top.
  if (full() && !replaced) {
    // (edit_profile marks no first-letter edit on words past its table.)
    const bool other_first =
        m > 0 && n_ > 0 && folded[0] != folded_[0] && n_ <= kOsaStackLength && m <= kOsaStackLength;
    const int64_t sound = sound_distance == 0 ? w_.same_sound : sound_distance == 1 ? w_.near_sound : 0;
    const int64_t most = prior + sound + std::max(0, -w_.first_letter) - (capital_mismatch ? w_.capital_mismatch : 0) -
                         least_edits(n_, m, f.distance) + (f.distance == 0 ? w_.case_only : 0) -
                         (other_first ? first_edit_ : 0);
    if (most < worst()) return;
  }
  const EditProfile edits = edit_profile(folded_.data(), n_, folded, m, f.distance);
  int64_t score = prior + channel_evidence(edits, sound_distance, capital_mismatch, w_);
  if (replaced) {
    EditProfile none;  // no edit counted, but not the typo in another case either
    none.distance = 1;
    score =
        std::max(score, prior + channel_evidence(none, sound_distance, capital_mismatch, w_) - w_.likely_replacement);
  }
  if (full() && score < worst()) return;  // spelled only if it can enter the top
  // An entry without a capital is its folded code points: its spelling is
  // not read (a cache miss per entry that gets this far).
  const char32_t* spelled = folded;
  if (!decoded && entry_capital) {
    entry_.resize(spelling().size() + 1);
    m = decode_utf8(spelling(), entry_.data());
    spelled = entry_.data();
  } else if (decoded) {
    spelled = entry_.data();
  }
  word_.clear();
  spell_in_case(spelled, m, pattern_, word_);
  if (word_ == typo_) return;  // the typo itself is no suggestion
  keep(word_, score, f.distance);
}

RankedWord SuggestionRanker::finish() {
  RankedWord out;
  out.accepted = accepted_ && top_ > 0;
  out.best.reserve(best_.size());
  for (const StoredCandidate& k : best_)
    out.best.push_back(RankedCandidate{std::string(kept_word(k)), k.score, k.distance});
  best_.clear();
  words_.clear();
  return out;
}

RankedWord rank_suggestions(std::string_view typo, const std::vector<FoundEntry>& found, size_t top,
                            const ChannelWeights& w, const LikelyReplacements* replacements) {
  thread_local std::vector<std::pair<int64_t, uint32_t>> order;  // (bound, found index)
  thread_local std::vector<int64_t> priors;
  SuggestionRanker ranker(w, replacements);
  ranker.start(typo, top);
  if (top == 0) return {};
  if (ranker.accepts_by_case())
    for (const FoundEntry& f : found)
      if (f.distance == 0) {
        ranker.offer(f, 0);
        return ranker.finish();
      }
  // Branch and bound: exact scores (the alignment, the phonetic keys: most
  // of the cost) in the order of their bounds, until no bound can beat the
  // top-th exact score.
  order.clear();
  priors.resize(found.size());
  for (uint32_t i = 0; i < found.size(); ++i) {
    priors[i] = channel_prior(found[i].frequency, found[i].collection_count, w);
    order.emplace_back(ranker.bound(priors[i], found[i].distance), i);
  }
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  for (const auto& [bound, i] : order) {
    if (!ranker.worth(bound)) break;
    ranker.offer(found[i], priors[i]);
  }
  return ranker.finish();
}

}  // namespace spellcheck
