#pragma once
// The symmetric-delete index (SymSpell's method) behind ranked suggestions,
// in two parts that are sharded over ranks separately (see ranked_lookup):
//
//   PrefixBuckets  entry -> its bucket, keyed by the hash of the first
//                  prefix_length code points of the case-folded entry;
//                  holds the entries themselves (spelling, folded code
//                  points, frequency). Owner: owner_of(prefix hash).
//   DeleteTable    hash of a string made by deleting up to max_distance code
//                  points from a bucket's prefix -> the buckets that make
//                  it (ranked_lookup stores their owners and numbers).
//                  Owner: owner_of(delete hash).
//
// Two words within distance d (OSA) have prefixes that share a string
// reachable by at most d deletions from each (a transposition or a
// substitution is one deletion on each side; cutting both words at the
// same length keeps the two sides' deletion counts equal), so looking up
// the deletes of a typo's prefix reaches the bucket of every entry within
// d; each one found is then checked with the true distance. Hash
// collisions only merge buckets or postings: they cost time, never a
// candidate. Flat arrays with an open-addressing directory, built once,
// read-only after.
#include <algorithm>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "spellcheck/common/word_list.hpp"
#include "spellcheck/dictionary/detail/hash_directory.hpp"
#include "spellcheck/suggest/osa_distance.hpp"

namespace spellcheck {

struct DeleteParams {
  int max_distance = 2;
  size_t prefix_length = 8;  // as --prefix-length (options.hpp; options_test checks)
};

// XXH3 of code points: up to 8 code points under 256 (most prefixes and
// their deletes) as one byte each, with a seed of their own; others as
// their 4-byte values.
uint64_t code_point_hash(const char32_t* w, size_t n);
// The hash of a folded word's bucket: of its first prefix_length code points.
inline uint64_t prefix_hash(const char32_t* w, size_t n, size_t prefix_length) {
  return code_point_hash(w, n < prefix_length ? n : prefix_length);
}
// The hashes of every distinct string made by deleting 0..max_distance code
// points from w's prefix (the prefix itself included), each once, in no
// particular order.
void prefix_deletes(const char32_t* w, size_t n, const DeleteParams& p, std::vector<uint64_t>& out);

// This rank's buckets of entries.
class PrefixBuckets {
 public:
  // entries: spellings as in the dictionary (distinct); frequency: one per
  // entry (0 when unknown). bucket_bits: buckets go first in the order of
  // their prefix hash's bucket among 2^bucket_bits (Ownership: a compiled
  // index, whose ranks hold whole buckets), then as below.
  void build(WordList entries, std::vector<uint64_t> frequency, const DeleteParams& p, unsigned bucket_bits = 0);

  // Every array build makes, as build makes them (a compiled file's part:
  // group_start, folded_start count from the part's first entry and code
  // point; the directory's ranges from its first entry).
  struct Arrays {
    WordList entries, sound_keys;
    std::vector<char32_t> folded;
    std::vector<uint32_t> folded_start;
    std::vector<uint8_t> capital;
    std::vector<uint64_t> frequency;
    std::vector<uint32_t> group_start;
    std::vector<uint64_t> group_key;
  };
  void assign(Arrays arrays, HashDirectory directory);
  // (compiled_ranked_index.cpp writes these)
  const WordList& sound_keys() const { return sound_keys_; }
  const std::vector<char32_t>& folded_points() const { return folded_; }
  const std::vector<uint32_t>& folded_starts() const { return folded_start_; }
  const std::vector<uint8_t>& capitals() const { return capital_; }
  const std::vector<uint64_t>& frequencies() const { return frequency_; }
  const std::vector<uint32_t>& group_starts() const { return group_start_; }
  const std::vector<uint64_t>& group_keys() const { return group_key_; }
  const HashDirectory& directory() const { return directory_; }
  size_t size() const { return entries_.size(); }
  // The entries of the bucket with this prefix hash, [first, last) (entries
  // are stored in bucket order, within a bucket by frequency, highest first).
  HashDirectory::Range bucket_range(uint64_t h) const { return directory_.find(h); }
  void prefetch(uint64_t h) const { directory_.prefetch(h); }
  std::string_view spelling(uint32_t e) const { return entries_[e]; }
  const WordList& spellings() const { return entries_; }
  const char32_t* folded(uint32_t e) const { return folded_.data() + folded_start_[e]; }
  size_t folded_size(uint32_t e) const { return folded_start_[e + 1] - folded_start_[e]; }
  uint64_t frequency(uint32_t e) const { return frequency_[e]; }
  bool has_capital(uint32_t e) const { return capital_[e] != 0; }
  // phonetic_key of the folded entry (kept: ranking needs it for every
  // entry it scores).
  std::string_view sound_key(uint32_t e) const { return sound_keys_[e]; }
  // Adds collection counts (document mode), per entry.
  void add_collection_counts(std::vector<uint64_t> counts) { collection_ = std::move(counts); }
  uint64_t collection_count(uint32_t e) const { return collection_.empty() ? 0 : collection_[e]; }
  // Calls f(bucket number, delete hash) for every delete of every bucket's
  // distinct prefixes: what the DeleteTable is built from.
  template <class F>
  void for_each_delete(const DeleteParams& p, F&& f) const {
    for_each_delete(p, 0, buckets(), 0, f);
  }
  // The same for buckets [first, last) only (threads take ranges), and only
  // for buckets holding an entry with a count of min_count or more (0: all).
  template <class F>
  void for_each_delete(const DeleteParams& p, size_t first, size_t last, uint64_t min_count, F&& f) const;
  size_t buckets() const { return group_start_.empty() ? 0 : group_start_.size() - 1; }
  // The entries of bucket g (0 <= g < buckets()), most frequent first.
  HashDirectory::Range group(size_t g) const { return {group_start_[g], group_start_[g + 1]}; }
  // The prefix hash of bucket g (whether it is a word's own bucket, with no
  // directory lookup).
  uint64_t group_key(size_t g) const { return group_key_[g]; }
  // Fetches what group(g) and group_key(g) read (a caller with many
  // buckets to read overlaps their misses).
  void prefetch_group(size_t g) const {
    __builtin_prefetch(&group_start_[g]);
    __builtin_prefetch(&group_key_[g]);
  }
  size_t bytes() const;

 private:
  WordList entries_;
  WordList sound_keys_;
  // The entries' folded code points, one after another: entry e's start
  // at folded_start_[e] (one more start closes the last). What the
  // distance check reads besides lives in ranked_lookup's per-entry check
  // records, built from these.
  std::vector<char32_t> folded_;
  std::vector<uint32_t> folded_start_;
  std::vector<uint8_t> capital_;  // per entry: the spelling has a capital (ranking asks)
  std::vector<uint64_t> frequency_, collection_;
  std::vector<uint32_t> group_start_;  // per distinct prefix hash: its first entry
  std::vector<uint64_t> group_key_;    // per bucket: its prefix hash
  HashDirectory directory_;
};

// This rank's part of a map from delete hashes to postings (prefix hashes,
// or sound-alike entries with their phonetic key).
template <class Posting>
class PostingTable {
 public:
  // pairs: (delete hash, posting), any order, duplicates allowed.
  void build(std::vector<std::pair<uint64_t, Posting>> pairs) {
    sort_by_spread_hash(pairs);
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    postings_.resize(pairs.size());
    group_start_.clear();
    std::vector<uint64_t> keys;
    for (size_t i = 0; i < pairs.size(); ++i) {
      if (i == 0 || pairs[i].first != pairs[i - 1].first) {
        group_start_.push_back(static_cast<uint32_t>(i));
        keys.push_back(pairs[i].first);
      }
      postings_[i] = pairs[i].second;
    }
    group_start_.push_back(static_cast<uint32_t>(pairs.size()));
    directory_.build(keys, group_start_);
  }
  // The postings of delete hash h: [first, last).
  std::pair<const Posting*, const Posting*> find(uint64_t h) const {
    const auto [b, e] = directory_.find(h);
    return {postings_.data() + b, postings_.data() + e};
  }
  void prefetch(uint64_t h) const { directory_.prefetch(h); }
  // f(key as stored, first, last) for every delete hash held.
  template <class F>
  void for_each(F&& f) const {
    directory_.slots().for_each([&](uint64_t k, const HashDirectory::Bounds& b) {
      f(k, postings_.data() + b.begin, postings_.data() + b.end);
    });
  }
  // A window of a compiled file's table (compiled_ranked_index.hpp): its
  // slots, and its postings from global posting `base` on.
  void assign_window(std::vector<HashDirectory::Slots::Slot> window, uint64_t slots, uint64_t first,
                     std::vector<Posting> postings, uint32_t base) {
    directory_.assign_window(std::move(window), slots, first, base);
    postings_ = std::move(postings);
    group_start_.clear();
  }
  const HashDirectory& directory() const { return directory_; }
  size_t postings() const { return postings_.size(); }
  size_t bytes() const {
    return postings_.size() * sizeof(Posting) + group_start_.size() * sizeof(uint32_t) + directory_.bytes();
  }

 private:
  std::vector<Posting> postings_;
  std::vector<uint32_t> group_start_;
  HashDirectory directory_;
};

// This rank's part of a map from delete hashes to buckets (ranked_lookup:
// their numbers over every rank's; a posting must be under 2^63). Most
// deletes lead to one bucket (1.3 per delete on docs/large): that one is
// kept in the delete's slot itself, so finding it reads one cache line and
// needs no array; a longer list is a range of an array, which the slot's
// top bit marks (then bits 0-31 are where it starts, 32-62 its length).
class DeleteTable {
 public:
  // pairs: (delete hash, posting), any order, duplicates allowed.
  void build(std::vector<std::pair<uint64_t, uint64_t>> pairs);
  // The postings of delete hash h: [first, last).
  std::pair<const uint64_t*, const uint64_t*> find(uint64_t h) const {
    const uint64_t* v = slots_.find(h);
    if (v == nullptr) return {nullptr, nullptr};
    if ((*v & kList) == 0) return {v, v + 1};
    const uint64_t* first = lists_.data() + (static_cast<uint32_t>(*v) - lists_base_);
    return {first, first + ((*v & ~kList) >> 32)};
  }
  void prefetch(uint64_t h) const { slots_.prefetch(h); }
  // A delete hash as the table keeps it (for_each_key gives these).
  static uint64_t stored_key(uint64_t h) { return HashSlots<uint64_t>::stored_key(h); }
  // f(key) for every delete hash held, as stored.
  template <class F>
  void for_each_key(F&& f) const {
    slots_.for_each([&](uint64_t k, uint64_t) { f(k); });
  }
  size_t deletes() const { return deletes_; }
  size_t postings() const { return postings_; }
  size_t bytes() const { return lists_.size() * sizeof(uint64_t) + slots_.bytes(); }

  // What a compiled file holds (compiled_ranked_index.hpp): slots whose
  // value is one posting, or a list's (kList | length << 32 | start).
  static constexpr uint64_t kList = uint64_t{1} << 63;
  using Slots = HashSlots<uint64_t>;
  const Slots& slots() const { return slots_; }
  const std::vector<uint64_t>& lists() const { return lists_; }
  // A window of a compiled file's table: its slots, and the lists from
  // global list posting `base` on (deletes() and postings() count a built
  // table's: 0 here).
  void assign_window(std::vector<Slots::Slot> window, uint64_t slots, uint64_t first, std::vector<uint64_t> lists,
                     uint32_t base) {
    slots_.assign_window(std::move(window), slots, first);
    lists_ = std::move(lists);
    lists_base_ = base;
    deletes_ = postings_ = 0;
  }

 private:
  HashSlots<uint64_t> slots_;
  std::vector<uint64_t> lists_;  // the postings of deletes with more than one
  uint32_t lists_base_ = 0;      // (a window's lists start there)
  uint64_t deletes_ = 0, postings_ = 0;
};

// A sound-alike entry: its phonetic key packed (pack_sound_key) and (owner
// rank << 32 | entry), so the table's owner can drop entries whose key is
// too far from the typo's before anything travels. A delete's postings are
// in this order, so by the key's top byte, the word's first letter, first
// (long keys, 0 there, before all): a typo's deletes need only its own
// letter's run and that first one (sound_alike_runs).
struct SoundPosting {
  uint64_t key = 0;
  uint64_t entry = 0;
  auto operator<=>(const SoundPosting&) const = default;
};
using SoundTable = PostingTable<SoundPosting>;

// A phonetic key of up to 6 ASCII characters and the word's first letter
// (low byte of its folded first code point) in one word: the length in
// byte 0, the key in bytes 1-6, the letter in byte 7. Longer keys pack to
// kLongSoundKey and are never filtered by it.
inline constexpr uint64_t kLongSoundKey = 0xFF;
uint64_t pack_sound_key(std::string_view key, char32_t first_letter);
// The key bytes of a short packed key (not kLongSoundKey) into out; returns
// the length.
size_t unpack_sound_key(uint64_t packed, char (&out)[6]);
// Whether two words sound alike enough to be candidates beyond the edit
// distance: keys at most max apart, and a word one key edit away must also
// begin with the same letter (on the tuning lists, those that do not never
// ranked). Long keys pass here (the exact test runs at the entry's owner).
bool packed_sounds_alike(uint64_t a, uint64_t b, int max);
// The runs of a delete's postings [first, last) (in SoundPosting order)
// that can hold an entry packed_sounds_alike with the packed key `typo` and
// not equal to it: those beginning with typo's letter and those beginning
// with none (long keys; 0 as a letter). Other letters sound alike only with
// an equal key, which the typo's equal-key lookup finds. Appends them to
// runs; a long typo key gets the whole list.
void sound_alike_runs(const SoundPosting* first, const SoundPosting* last, uint64_t typo,
                      std::vector<std::pair<const SoundPosting*, const SoundPosting*>>& runs);
bool sounds_alike(std::string_view key_a, char32_t first_a, std::string_view key_b, char32_t first_b, int max);
// osa_distance of two packed keys, 0, 1 or 2 for more; -1 when either is
// long (kLongSoundKey: compare the keys themselves).
int packed_key_distance(uint64_t a, uint64_t b);
// osa_distance of two phonetic keys (ASCII), or max + 1 when greater.
int key_distance(const char* a, size_t n, const char* b, size_t m, int max);

template <class F>
void PrefixBuckets::for_each_delete(const DeleteParams& p, size_t first_bucket, size_t last_bucket, uint64_t min_count,
                                    F&& f) const {
  std::vector<uint64_t> dels;
  for (size_t g = first_bucket; g < last_bucket; ++g) {
    // Distinct prefixes of the bucket (one, unless two prefixes collided).
    const uint32_t first = group_start_[g], last = group_start_[g + 1];
    if (min_count > 0 && std::none_of(frequency_.begin() + first, frequency_.begin() + last,
                                      [&](uint64_t count) { return count >= min_count; }))
      continue;
    for (uint32_t e = first; e != last; ++e) {
      const size_t n = std::min(folded_size(e), p.prefix_length);
      auto same_prefix = [&](uint32_t o) {
        return std::min(folded_size(o), p.prefix_length) == n && std::equal(folded(o), folded(o) + n, folded(e));
      };
      if (e != first && same_prefix(first)) continue;  // the common case: one prefix per bucket
      bool seen = false;
      for (uint32_t o = first; o != e && !seen; ++o) seen = same_prefix(o);
      if (seen) continue;
      prefix_deletes(folded(e), n, p, dels);
      for (const uint64_t d : dels) f(g, d);
    }
  }
}

}  // namespace spellcheck
