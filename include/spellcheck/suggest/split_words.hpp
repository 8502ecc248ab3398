#pragma once
// Run-together words in context (issue 32): a misspelled word that is two
// words of the collection ("inthe", "alot") gets the split ("in the") as a
// candidate when the collection has the pair, scored like any candidate by
// the noisy channel: the pair's probability in the collection, scaled to
// the frequency list's total, as its prior (and its count as the
// collection term); a space left out as its edit, and the parts sound as
// the word does (-insertion + same_sound).
//
// Not cut: words with a capital after the first letter (identifiers:
// "WebServer"), and splits whose pair the collection has less than
// apart_ratio times as often as the word. The parts must be words the
// dictionary accepted somewhere in the collection: a round before the
// pass asks the owners of the correct words' counts about the parts of
// the cuts that a filter of every rank's correct words passes. The pairs
// of the cuts that remain go into a filter the pass counts pairs by,
// besides the candidates'.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/suggest/detail/context_counts.hpp"
#include "spellcheck/suggest/noisy_channel.hpp"
#include "spellcheck/suggest/ranked_results.hpp"

namespace spellcheck {

struct SplitParams {
  bool enabled = true;           // --split on|off
  size_t max_bytes = 30;         // longer words are not cut
  uint64_t frequency_total = 0;  // the frequency list's counts summed (0: none, priors from the floor)
  ChannelWeights weights;
  size_t top = 10;  // a ranking's length with its splits (at least what it had)
  // The pair must occur this many times as often as the word itself: a
  // word the collection often writes as one (a name, "buryingplace" in the
  // King James Bible, "insertmode" in Vim's help) is spelled so on
  // purpose (results/context.md: 4, 10, 20, 50 measured).
  uint64_t apart_ratio = 10;
  // A part of one letter must be this common (1 in N tokens or more).
  uint64_t one_letter_share = 200;
};

// One cut of a misspelled word into two words of the collection.
struct WordSplit {
  uint32_t word = 0;  // the misspelled word's index
  uint32_t at = 0;    // its bytes [0, at) and [at, end)
  uint64_t pair = 0;  // pair_key of the parts' context hashes
};

// Collective: the cuts of this rank's misspelled words (those not
// accepted, up to max_bytes) whose parts are both words the dictionary
// accepted in the collection (word_counts: every rank's together the
// collection's), by word and cut. None if !params.enabled.
std::vector<WordSplit> known_splits(const mpi::Comm& comm, const WordList& words, const RankedResults& ranked,
                                    const std::vector<WordCount>& word_counts, const SplitParams& params);

// The score of a split whose pair occurs pair_count times in a collection
// of tokens tokens.
int64_t split_score(uint64_t pair_count, uint64_t tokens, const SplitParams& params);

// The rankings with each word's splits whose pair the collection has
// apart_ratio times as often as the word (counts: pair_key -> count;
// occurrences: per word) merged in by score (after candidates of the same
// score), top at most (or what the word had); offered: the words given
// a split, added to.
RankedResults with_splits(const WordList& words, const RankedResults& ranked, const std::vector<WordSplit>& splits,
                          const detail::CountTable& counts, const std::vector<uint64_t>& occurrences, uint64_t tokens,
                          const SplitParams& params, uint64_t& offered);

}  // namespace spellcheck
