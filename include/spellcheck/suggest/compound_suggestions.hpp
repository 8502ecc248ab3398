#pragma once
// Ranked suggestions for compounds (hunspell dictionaries that compound:
// de, nl, sv, ...). A compound is no entry of the index, so a typo in one
// of its parts finds nothing near it ("abrchitectuuropgave"). Here each
// misspelled word is cut in two at every letter; where one side is a
// correct word, the other side's own ranked suggestions are put back in
// its place, and what hunspell accepts of the results joins the word's
// ranking with the part's score ("architectuuropgave").
#include <cstddef>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/suggest/hunspell_judge.hpp"
#include "spellcheck/suggest/noisy_channel.hpp"
#include "spellcheck/suggest/ranked_lookup.hpp"
#include "spellcheck/suggest/ranked_results.hpp"
#include "spellcheck/suggest/ranking.hpp"

namespace spellcheck {

struct CompoundCounts {
  uint64_t parts_checked = 0;    // halves judged
  uint64_t parts_looked_up = 0;  // halves given suggestions
  uint64_t joined_checked = 0;   // joined strings judged
  uint64_t found = 0;            // joined strings accepted and offered
  uint64_t edit_words = 0;       // words given hunspell's edit-1 strings
  uint64_t edit_found = 0;       // of those strings, accepted ones
};

// Collective: hunspell's own way for the words whose ranking has no
// candidate within one edit: every string one edit away that hunspell
// accepts (compounds too: HunspellJudge::candidates), scored by the same
// channel model (no prior: compounds have no frequency), merged into
// results.
void add_edit_suggestions(HunspellJudge& judge, const WordList& words, const ChannelWeights& weights, size_t top,
                          RankedResults& results, CompoundCounts& counts);

// Collective. results: the words' rankings so far (replaced by the merged
// ones, top at most).
void add_compound_suggestions(const mpi::Comm& comm, HunspellJudge& judge, const RankedIndex& index,
                              const WordList& words, const ChannelWeights& weights, size_t top, size_t min_part,
                              RankedResults& results, CompoundCounts& counts);

}  // namespace spellcheck
