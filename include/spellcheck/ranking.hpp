#pragma once
// Ranking the entries found near one misspelled word: the noisy-channel
// score of each (noisy_channel.hpp), the word's own case pattern applied,
// best first, the top K kept. Pure: the same on every rank and thread.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/noisy_channel.hpp"

namespace spellcheck {

// An entry within the distance of the typo (distance over folded code
// points; 0: it differs only in case).
struct FoundEntry {
  std::string_view spelling;  // as in the dictionary
  uint64_t frequency = 0;
  uint64_t collection_count = 0;
  uint8_t distance = 0;
  std::string_view sound_key;  // phonetic_key of the folded entry, if known (else computed)
};

struct RankedCandidate {
  std::string word;  // in the typo's case pattern
  int64_t score = 0;
  uint8_t distance = 0;
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
                            const ChannelWeights& weights);

// Merges the ranking of the same word from another set of entries (another
// rank's): the best top distinct words of both; accepted if either says so.
void merge_ranked(RankedWord& into, RankedWord&& part, size_t top);

}  // namespace spellcheck
