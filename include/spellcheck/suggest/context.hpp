#pragma once
// Ranked mode in context (issue 32): a misspelled word's candidates weighed
// by the words around its occurrences, as the collection itself uses them.
//
// One more pass over each rank's share of the documents (inputs that can be
// read again), tokens shown to an observer, no words counted. Every rank
// knows the misspelled words (their hashes, allgathered) and a filter of
// their weighed candidates (OR-reduced); the pass notes each occurrence
// with its neighbours' hashes, and counts the neighbour pairs with a
// candidate on one side. The occurrences go to the rank that ranked the
// word (the neighbours across unit edges joined first: every rank and
// thread count gives the same), which then wants, per candidate c and
// neighbour L or R, the counts of L c, c R and of the words L, c, R: a
// filter of all ranks' wanted keys is OR-reduced, the pair counts it
// passes (and the first reading's word counts) go to each key's owner
// (owner_of), and the ranking ranks ask those for the counts. Memory
// follows the misspellings and their candidates' pairs, not the
// collection's vocabulary of pairs.
//
// A candidate's score gains, per occurrence, weight * 1000 * (ln P(c | L) -
// ln P(c)) + weight * 1000 * (ln P(R | c) - ln P(R)) with stupid backoff
// (Brants et al. 2007): P(c | L) = count(L c) / count(L) when the pair
// occurs, else backoff * P(c), so a side without evidence adds the same
// ln(backoff) to every candidate. The word's candidates are reordered by
// the sum over its occurrences; each occurrence's best is the candidate
// with the highest sum plus its own evidence once more.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/input/line_marks.hpp"
#include "spellcheck/input/token_observer.hpp"
#include "spellcheck/suggest/detail/context_counts.hpp"
#include "spellcheck/suggest/merge_words.hpp"
#include "spellcheck/suggest/ranked_results.hpp"
#include "spellcheck/suggest/split_words.hpp"

namespace spellcheck {

struct ContextParams {
  double weight = 0.5;    // the evidence's weight against the noisy channel's score (--context-weight)
  double backoff = 0.4;   // stupid backoff's factor
  size_t candidates = 5;  // a word's first candidates weighed (the rest stay after them, as they were; none if one)
  SplitParams split;      // run-together words (split_words.hpp)
  MergeParams merge;      // words written apart (merge_words.hpp)
  bool places = true;     // each occurrence's place and best wanted (jsonl, --report, --fix): lines counted
};

// This rank's figures (--stats).
struct ContextFigures {
  uint64_t occurrences = 0;   // occurrences of misspelled words in this rank's share
  uint64_t wanted_keys = 0;   // distinct pair and word keys this rank's words ask for
  uint64_t counted_keys = 0;  // keys this rank owns counts of (wanted, and the filter's false positives)
  uint64_t filter_bytes = 0;  // the filters every rank holds (misspelled words, candidates, wanted keys)
  uint64_t table_bytes = 0;   // the largest count table held here (the pass's pairs, or the owned counts)
  uint64_t split_cuts = 0;    // cuts of this rank's misspelled words into two correct words (split_words.hpp)
  uint64_t split_words = 0;   // words given a split as a candidate
  uint64_t merge_cuts = 0;    // cuts of this rank's correct words into two correct words (merge_words.hpp)
  uint64_t pairs_apart = 0;   // occurrences of those cuts' pairs in this rank's share, one blank between
  uint64_t merges = 0;        // merges this rank reports
};

// One occurrence of a misspelled word, at the rank that ranked the word.
struct ContextOccurrence {
  uint64_t position = 0;  // stream position
  uint64_t mark = 0;      // line mark (line_marks.hpp) in the pass's units
  uint32_t word = 0;      // the word's index
  uint32_t best = 0;      // its best candidate here (index into the word's candidates, as reordered)
  int64_t margin = 0;     // best's score over the runner-up's here (score units; kAlone if none)
  static constexpr int64_t kAlone = int64_t{1} << 40;
};

struct InContext {
  std::vector<ContextOccurrence> occurrences;  // by word, then position
  std::vector<LineUnit> line_units;            // of this rank's pass (for LineTable)
  std::vector<Merge> merges;                   // the merges this rank reports

  // Word i's occurrences.
  std::span<const ContextOccurrence> of(size_t word) const {
    const auto by_word = [](const ContextOccurrence& o, size_t w) { return o.word < w; };
    const auto b = std::lower_bound(occurrences.begin(), occurrences.end(), word, by_word);
    const auto e = std::lower_bound(b, occurrences.end(), word + 1, by_word);
    return {b, e};
  }
};

// Runs the reader over this rank's share once, showing the observer every
// token (thread numbers below `threads`), with line marks if `marks`;
// returns the pass's line units. Collective (every rank runs it).
using ObservedPass = std::function<std::vector<LineUnit>(TokenObserver& observer, bool marks)>;

// The words' counts as WordCount (detail/context_counts.hpp); correct: the
// dictionary accepted them.
void add_context_word_counts(const WordList& words, const std::vector<uint64_t>& counts, bool correct,
                             std::vector<WordCount>& out);

// Collective. words: the misspelled words this rank ranked, ranked: their
// rankings, reordered here; word_counts: the distinct words this rank
// judged, every rank's together the whole collection's; joins: this
// rank's correct words that may be joins (merge_words.hpp); threads: the
// pass's team size.
InContext rank_in_context(const mpi::Comm& comm, const WordList& words, RankedResults& ranked,
                          const std::vector<WordCount>& word_counts, const JoinWords& joins, int threads,
                          const ObservedPass& pass, const ContextParams& params, ContextFigures& figures);

// The evidence of one side (tests): ln P_bo(w | v) - ln P(w), from the
// counts of the pair v w, of v, of w, and of all tokens.
double context_side(uint64_t pair, uint64_t given, uint64_t word, uint64_t tokens, double backoff);

}  // namespace spellcheck
