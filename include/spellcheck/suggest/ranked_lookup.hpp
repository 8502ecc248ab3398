#pragma once
// Ranked suggestions over the sharded symmetric-delete index (see
// delete_index.hpp). Three tables, each sharded by its own key's owner
// (owner_of; in a compiled index whole buckets of it, Ownership), so no
// rank holds the whole dictionary or index:
//
//   buckets   entries by the hash of their folded prefix
//   deletes   prefix deletes -> buckets, numbered over every rank's (two
//             tables: every bucket's deletes up to rare_distance, and up
//             to max_distance those of buckets holding a word with a count
//             of far_min_count or more)
//   sounds    the phonetic key of each entry with a frequency (marked
//             apart: equal keys), and the key's deletes for entries with a
//             count of sound_min_count -> entries, numbered over every
//             rank's
//
// A round of lookups for a batch of misspelled words is three personalised
// all-to-alls (on the thread that initialised MPI), in two hops and a reply:
//   1. each word, with its prefix deletes and sound-key deletes, to the
//      owners of those deletes, except the deletes that no rank holds
//      (a Bloom filter of every rank's delete keys says so: most of a
//      typo's deletes are nobody's);
//   2. they look the deletes up and forward the word, with the buckets and
//      sound-alike entries found (distinct; sound-alikes only when their
//      phonetic keys are near enough, checked there), to the owners of
//      those buckets and entries;
//   3. these take a word's parts from every forwarder together and check
//      each entry once with the true distance (OSA <= the typo's distance,
//      typo_distance; or, for a sound-alike, keys one edit apart and OSA <=
//      sound_alike_reach). A bucket found only through the frequent table
//      has its frequent entries checked only (a rarer one within
//      rare_distance would have come through the other table). Before the
//      distance, each entry is bounded from below by its length, letter set
//      and letter counts (osa_distance.hpp). The entries that pass are
//      ranked there (ranking.hpp) and each word's top goes back to the
//      rank that asked, which merges the tops.
// Rounds hold at most words_per_round words per rank, so memory stays
// bounded; every rank takes part in as many rounds as the busiest one needs.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spellcheck/comm/mpi.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/dictionary/compiled_dictionary.hpp"
#include "spellcheck/dictionary/frequencies.hpp"
#include "spellcheck/suggest/delete_index.hpp"
#include "spellcheck/suggest/ranked_results.hpp"
#include "spellcheck/suggest/ranking.hpp"

namespace spellcheck {

inline constexpr int64_t kNoSoundGate = INT64_MAX;

struct EntryCheck;  // what checking an entry reads (ranked_lookup.cpp)

// Where a compiled file's ranked index is (compiled_ranked_index.cpp).
struct CompiledSection {
  ReadAt read;       // the file's bytes
  std::string name;  // its path, for errors
  uint64_t at = 0, bytes = 0;
};

struct RankedParams {
  DeleteParams deletes;    // max distance, prefix length
  int sound_distance = 1;  // phonetic keys this far apart count as sounding alike; -1: no sound-alikes
  int rare_distance = 1;   // edits at most for entries without a frequency (when a list was given)
  // Frequency tiers (when a list was given): the count an entry needs to be
  // a candidate beyond rare_distance, and to sound alike with a phonetic key
  // one edit away (equal keys: any count).
  uint64_t far_min_count = 1;
  uint64_t sound_min_count = 1;
  size_t top = 10;
  size_t words_per_round = 16384;
  // Sound-alikes are looked up (a second pass) only for words whose best
  // candidate within max distance scores below this (thousandths of a nat,
  // as channel_score); kNoSoundGate: in the same pass, for every word.
  int64_t sound_gate = kNoSoundGate;
  // Typos of fewer code points than this get entries within one edit only
  // (min(1, max distance); sound-alikes beyond it as usual); 0: every typo
  // gets max distance. At distance 2 a short typo has hundreds of
  // neighbours, almost never the word meant.
  size_t two_edits_from = 0;
  // SPEC's ranked case rule: a word in capitals or title case of an entry is
  // correct. Off for hunspell dictionaries, which judge case themselves.
  bool case_accepts = true;
  // The .aff's REP and MAP errors, scored as one likely edit (a hunspell
  // dictionary's; nullptr: none). Kept by reference.
  const LikelyReplacements* replacements = nullptr;
};

// The edits at most for a typo of n code points (folded).
inline int typo_distance(const RankedParams& p, size_t n) {
  const int d = p.deletes.max_distance;
  return n < p.two_edits_from && d > 1 ? 1 : d;
}

struct RankedCounts {
  uint64_t words = 0;             // looked up
  uint64_t delete_lookups = 0;    // prefix and sound deletes asked
  uint64_t deletes_filtered = 0;  // prefix deletes not asked: no rank holds them (the delete filter)
  uint64_t postings = 0;          // bucket and entry references the deletes led to
  uint64_t buckets_asked = 0;     // distinct buckets and sound-alike entries checked, per word and owner
  uint64_t entries_checked = 0;
  uint64_t found = 0;  // entries that passed the check
  uint64_t rounds = 0;
  uint64_t sound_words = 0;  // words whose sound-alikes were looked up
};

class RankedIndex {
 public:
  // Collective. entries: this rank's dictionary entries as spelled (its
  // shard, duplicates allowed); frequencies: this rank's share of the
  // frequency list; collection: words of the collection with their counts
  // (document mode; any rank, a word may come from several), the prior's
  // collection term. Both count per case-folded entry.
  void build(const mpi::Comm& comm, WordList entries, FrequencyList frequencies, const RankedParams& params,
             FrequencyList collection = {});

  // Collective: the ranked suggestions of this rank's words, one per word.
  // With a sound gate, two passes: entries within the distance for every
  // word, then sound-alikes for the words whose best scores below the gate.
  RankedResults suggest(const mpi::Comm& comm, const WordList& words, const ChannelWeights& weights,
                        RankedCounts& counts) const;

  size_t bytes() const {
    return buckets_.bytes() + deletes_all_.bytes() + deletes_frequent_.bytes() + sounds_.bytes() +
           delete_filter_.bytes();
  }
  size_t entries() const { return buckets_.size(); }

  // compile (compiled_ranked_index.cpp): the index of a whole dictionary,
  // built on this rank alone in the order of 2^bucket_bits buckets, as a
  // section of a compiled file that a run on any number of ranks up to the
  // buckets reads its part of. frequency_digest: of the frequency list's
  // file (0: none), which a run must match.
  static std::string compiled_section(WordList entries, FrequencyList frequencies, const RankedParams& params,
                                      unsigned bucket_bits, uint64_t frequency_digest);
  // Rank of ranks' part of a compiled file's section. Returns "" or, when
  // the section was compiled with other parameters or another frequency
  // list than these, why (nothing is read then: build the index instead).
  // Throws InputError "NAME: ..." for a damaged or truncated section. Then
  // add_collection as build does.
  std::string read_compiled(const CompiledSection& section, int rank, int ranks, const RankedParams& params,
                            uint64_t frequency_digest);
  // Collective: the collection's counts (build's last step).
  void add_collection(const mpi::Comm& comm, FrequencyList collection);

 private:
  RankedParams params_;
  // Who owns a hash of each table: owner_of, or in a compiled index whole
  // buckets (Ownership). A posting names a bucket (or a sound-alike entry)
  // by its number over every rank's, which count from group_first_[r]
  // (entry_first_[r]) on rank r.
  unsigned bucket_bits_ = 0;
  std::vector<uint64_t> group_first_, entry_first_;
  int owner(uint64_t h, int ranks) const { return Ownership{ranks, bucket_bits_}(h); }
  // The rank holding number id of such a list of firsts (ranks + 1).
  static int holder(const std::vector<uint64_t>& first, uint64_t id) {
    return static_cast<int>(std::upper_bound(first.begin(), first.end(), id) - first.begin()) - 1;
  }
  int rare_distance_ = 2;  // in force: params' rare_distance, or max_distance without frequencies
  PrefixBuckets buckets_;
  DeleteTable deletes_all_;       // every bucket's prefix deletes, up to rare_distance_
  DeleteTable deletes_frequent_;  // buckets with a frequent entry, up to max_distance (if above rare_distance_)
  uint64_t far_min_count_ = 1, sound_min_count_ = 1;  // in force (at least 1)
  SoundTable sounds_;
  // Every rank's keys of both delete tables (the frequent table's salted
  // apart), the same on every rank: a delete it does not hold is not sent.
  // Derived from the tables, but kept in a compiled file with them: filling
  // and reducing it is a collective step a compiled run need not take.
  BloomFilter delete_filter_;

  // Which lookups a pass makes: entries within the distance (buckets),
  // sound-alikes beyond it, or both.
  enum class Pass { buckets, sounds, both };
  class Lookup;  // one lookup() call, as the protocol's steps (ranked_lookup.cpp)
  // suggest() on words already in locality order.
  RankedResults suggest_in_order(const mpi::Comm& comm, const WordList& words, const ChannelWeights& weights,
                                 RankedCounts& counts) const;
  RankedResults lookup(const mpi::Comm& comm, const WordList& words, const ChannelWeights& weights,
                       const std::vector<EntryCheck>& entry_checks, RankedCounts& counts, Pass pass) const;
  std::vector<EntryCheck> entry_checks(const ChannelWeights& weights) const;
  // build()'s parts: the tables from the entries and frequencies, with the
  // delete filter (what a compiled file holds), and the collection's
  // counts (every run's own).
  void build_tables(const mpi::Comm& comm, WordList entries, FrequencyList frequencies);
  // Collective: delete_filter_ from every rank's tables.
  void build_delete_filter(const mpi::Comm& comm);
  void set_count_tiers();  // far_min_count_ and sound_min_count_ from params_
};

}  // namespace spellcheck
