#pragma once
// Ranking the entries found near one misspelled word: the noisy-channel
// score of each (noisy_channel.hpp), the word's own case pattern applied,
// best first, the top K kept. Pure: the same on every rank and thread.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/common/code_points.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/suggest/likely_replacements.hpp"
#include "spellcheck/suggest/noisy_channel.hpp"

namespace spellcheck {

// An entry within the distance of the typo (distance over folded code
// points; 0: it differs only in case).
struct FoundEntry {
  std::string_view spelling;  // as in the dictionary
  uint64_t frequency = 0;
  uint64_t collection_count = 0;
  uint8_t distance = 0;
  std::string_view sound_key;  // phonetic_key of the folded entry, if known (else computed)
  // The folded code points of the spelling and whether it has a capital,
  // if the caller keeps them (else decoded): the spelling is then decoded
  // only for an entry that makes the top.
  const char32_t* folded = nullptr;
  size_t folded_size = 0;
  bool has_capital = false;
  // OSA distance of the typo's and the entry's phonetic keys (0, 1, 2 for
  // more), if the caller knows it (else from the keys).
  int8_t sound_distance = -1;
  // If given, the spelling is (*spellings)[index], read only for an entry
  // that makes the top (the read is a cache miss per entry).
  const WordList* spellings = nullptr;
  uint32_t index = 0;
};

struct RankedCandidate {
  std::string word;  // in the typo's case pattern
  int64_t score = 0;
  uint8_t distance = 0;
};

// A candidate whose spelling is kept in a text buffer beside it (the
// ranker's top, RankedResults): records move, strings stay.
struct StoredCandidate {
  int64_t score = 0;
  size_t at = 0;  // into the buffer
  uint32_t size = 0;
  uint8_t distance = 0;

  // Appends spelled to the buffer: its record there.
  static StoredCandidate append(std::string& buffer, std::string_view spelled, int64_t score, uint8_t distance) {
    const StoredCandidate c{score, buffer.size(), static_cast<uint32_t>(spelled.size()), distance};
    buffer.append(spelled);
    return c;
  }
  std::string_view spelling(std::string_view buffer) const { return buffer.substr(at, size); }
};

struct RankedWord {
  // Capitals or title case of an entry (`ABOVE`, `Élan`): not a misspelling
  // in ranked mode.
  bool accepted = false;
  std::vector<RankedCandidate> best;  // at most top, best first
};

// Ranks found (any order, duplicates harmless): score descending, then the
// displayed word byte-wise; a displayed word appears once (its best score).
RankedWord rank_suggestions(std::string_view typo, const std::vector<FoundEntry>& found, size_t top,
                            const ChannelWeights& weights, const LikelyReplacements* replacements = nullptr);

// The same, one entry at a time, for callers that search best-first and
// stop early (ranked_lookup): bound() is an upper bound of the score of any
// entry with that prior at that distance or more, so once full() an entry
// whose bound is below worst() cannot change the result. Offering the same
// entries in any order gives rank_suggestions' answer; a word in capitals
// or title case is accepted (and ranks nothing) once an entry at distance 0
// is offered.
class SuggestionRanker {
 public:
  // replacements: the .aff's likely errors (none: nullptr); kept by reference.
  explicit SuggestionRanker(const ChannelWeights& weights, const LikelyReplacements* replacements = nullptr);
  // distinct_entries: the caller offers each dictionary entry once at most
  // (then, unless the typo is in capitals or title case, which spell two
  // entries alike, no two offers spell the same word, and none is looked for).
  // case_accepts: a word in capitals or title case is accepted by an entry
  // at distance 0 (SPEC's ranked case rule; hunspell dictionaries judge
  // case themselves and turn it off).
  void start(std::string_view typo, size_t top, bool distinct_entries = false, bool case_accepts = true);
  // Upper bound of channel_score for an entry of this prior (channel_prior)
  // at distance min_distance or more, whatever its edits, sound and case;
  // other_first: its folded first letter differs from the typo's (so an
  // edit touches the first letter).
  // (Weights of either sign: negative costs count as none.)
  int64_t bound(int64_t prior, int min_distance, bool other_first = false) const {
    const int64_t edits = min_distance * cheapest_edit_ + (other_first ? first_edit_ : 0);
    return prior + best_extra_ - (min_distance > 0 && replacements_ ? std::min(edits, replacement_cost_) : edits) +
           (min_distance == 0 ? case_only_ : 0);
  }
  // The least the edits of any alignment at distance d of a typo of n code
  // points with an entry of m cost (the first-letter edit apart): |n - m|
  // of them insert or delete. offer() skips the alignment of an entry whose
  // score, with that, cannot enter the top.
  int64_t least_edits(size_t n, size_t m, int d) const;
  bool full() const { return best_.size() == top_; }
  int64_t worst() const { return best_.back().score; }
  // Whether an entry with this bound can still change the result.
  bool worth(int64_t bound) const { return !accepted_ && (!full() || bound >= worst()); }
  // Whether distance 0 accepts the typo (capitals or title case).
  bool accepts_by_case() const { return accepts_by_case_; }
  bool accepted() const { return accepted_; }
  // phonetic_key of the folded typo.
  std::string_view typo_sound() const { return typo_sound_; }
  // prior: channel_prior of the entry's counts (callers keep them).
  void offer(const FoundEntry& f, int64_t prior);
  RankedWord finish();
  // What finish() gives, read in place (for a caller that copies it out
  // anyway: no vector per word); start() clears it. f(word, score,
  // distance) per candidate, best first.
  bool ranked_accepted() const { return accepted_ && top_ > 0; }
  size_t ranked_size() const { return best_.size(); }
  template <class F>
  void each_ranked(F&& f) const {
    for (const StoredCandidate& k : best_) f(kept_word(k), k.score, k.distance);
  }

 private:
  const ChannelWeights& w_;
  const LikelyReplacements* replacements_ = nullptr;
  int64_t replacement_cost_ = 0;  // what an entry one likely replacement away pays at least
  int64_t cheapest_edit_ = 0, best_extra_ = 0, case_only_ = 0, first_edit_ = 0;
  // Least costs of a letter left out, a letter added, and a unit of
  // distance that changes no length (a substitution, a transposition, or
  // half of an added-and-left-out pair): least_edits() from them.
  int64_t cheapest_insertion_ = 0, cheapest_deletion_ = 0, cheapest_change_ = 0;

  std::string_view typo_;
  size_t top_ = 0, n_ = 0;
  CasePattern pattern_{};
  bool accepts_by_case_ = false, accepted_ = false, distinct_words_ = false;
  std::vector<char32_t> folded_, entry_, folded_entry_;
  std::string typo_sound_;  // phonetic_key of the folded typo
  // The top: small records, best first, distinct words, whose spellings
  // are in words_ (appended as they come in; start() empties it). Offers
  // move records, not strings.
  std::string_view kept_word(const StoredCandidate& k) const { return k.spelling(words_); }
  bool better(const StoredCandidate& x, const StoredCandidate& y) const {
    if (x.score != y.score) return x.score > y.score;
    return kept_word(x) < kept_word(y);
  }
  void keep(std::string_view word, int64_t score, uint8_t distance);
  std::vector<StoredCandidate> best_;
  std::string words_;
  std::string word_;
};

}  // namespace spellcheck
