#pragma once
// Split words in context (issue 32): two neighbouring words the text
// writes apart with one blank between ("with out") whose join is a word the
// dictionary accepted in the collection ("without"; written lower-case
// there at least once: not a name), which the collection
// writes as one at least together_ratio times as often as apart, get the
// merge, reported where their occurrences are (--format jsonl, --report).
//
// Distributed: the ranks cut the correct words they judged into two parts
// of two letters or more (not words with a capital after the first letter:
// identifiers); the cuts whose parts are both correct words of the
// collection (a filter of every rank's, then their owners asked) go into a
// filter of their pairs, by which the context pass notes each pair it sees
// with one blank between (not in a hyphenated word: "her self-reproving").
// The cuts and the pairs seen go to the owner of
// the pair's key (owner_of), which sums the joins' counts, counts the
// pairs, and keeps the merges.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/suggest/detail/context_counts.hpp"

namespace spellcheck {

struct MergeParams {
  bool enabled = true;    // --merge on|off
  size_t max_bytes = 30;  // longer joins are not cut
  // The join must occur this many times as often as the pair apart: "in
  // to" is often right ("calls in to his assistance"), "into" about 100
  // times as common (results/context.md: 10 to 500 measured).
  uint64_t together_ratio = 200;
};

// Words that may be joins: correct words with a cut into two parts of two
// letters or more, and their counts in the collection.
struct JoinWords {
  WordList words;
  std::vector<uint64_t> counts;
  void add(const WordList& from, const std::vector<uint64_t>& counts, const MergeParams& params);
  void add(std::string_view word, uint64_t count, const MergeParams& params);
};

// A cut of join word `join` at byte `at` whose parts are correct words of
// the collection; pair: pair_key of the parts' context hashes.
struct MergeCut {
  uint64_t pair = 0;
  uint32_t join = 0;
  uint32_t at = 0;
};

// A pair the context pass saw with one blank between, at its first word.
struct PairSeen {
  uint64_t pair = 0;
  uint64_t position = 0;  // stream position
  uint64_t mark = 0;      // line mark
  bool capital = false;   // the first word's first letter a capital
};

// A merge this rank reports: the pair as written ("with out", "With out")
// and joined, how many times as often the collection writes it joined,
// and where (stream position, line mark), in text order.
struct Merge {
  std::string apart, together;
  int64_t score = 0;  // 1000 ln(together's count / the pair's)
  std::vector<std::pair<uint64_t, uint64_t>> places;
};

// Collective: the cuts of joins (this rank's) whose parts are both words
// the dictionary accepted (word_counts: every rank's together the
// collection's), by join and cut.
std::vector<MergeCut> merge_cuts(const mpi::Comm& comm, const JoinWords& joins,
                                 const std::vector<WordCount>& word_counts, const MergeParams& params);

// Collective: the merges, each at the owner of its pair's key, from every
// rank's cuts and pairs seen (but those struck: a hyphen after them across
// a unit's edge); by pair as written.
std::vector<Merge> decide_merges(const mpi::Comm& comm, const JoinWords& joins, const std::vector<MergeCut>& cuts,
                                 const std::vector<PairSeen>& seen, const std::vector<PairSeen>& struck,
                                 const MergeParams& params);

}  // namespace spellcheck
