#pragma once
// Shard: this rank's part of the dictionary, in a TBB concurrent hash map
// filled by several threads at once (inserts lock one bucket each). Keys are entries with their first byte
// lowered (the same form word_hash hashes), so one probe answers the SPEC
// case rule: the value says whether the key itself was an entry and whether
// its capitalised form was.
#include <tbb/concurrent_hash_map.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/dictionary/detail/arena.hpp"
#include "spellcheck/dictionary/trigram_filter.hpp"

namespace spellcheck {

class Shard {
 public:
  Shard() : table_(ArenaAllocator<Entry>(&arena_)) {}
  Shard(const Shard&) = delete;
  Shard& operator=(const Shard&) = delete;

  // Takes this rank's entries (and their word_hash, computed here if not
  // given) and indexes them with OpenMP threads; duplicates are harmless.
  // The hashes are kept for the filter.
  // with_trigrams = false: the trigram filter is not wanted (a compiled
  // dictionary's is read whole).
  void build(WordList entries, std::vector<uint64_t> hashes = {}, bool with_trigrams = true);

  // SPEC: word is correct if it is an entry, or if its first byte is A-Z
  // and the word with that byte lowered is an entry. h = word_hash(word).
  // Only after build() returns: the table is read-only from then on, so
  // the lookup walks the chain without taking the bucket's and the item's
  // locks (find() with an accessor would: two atomic read-modify-writes per
  // lookup, on lines that other threads are reading too).
  bool contains(std::string_view word, uint64_t h) const {
    const auto hit = table_.equal_range(Key{word, h});
    if (hit.first == hit.second) return false;
    return is_ascii_upper(static_cast<unsigned char>(word[0])) || (hit.first->second & kExact) != 0;
  }

  // Many lookups at once, their cache misses overlapped: a lookup is three
  // dependent misses (bucket, node, the key's bytes), a few hundred ns
  // each on a virtual machine, and a loop of plain contains() waits for
  // every one in turn. Here the bucket of lookup i+16, the first node of
  // lookup i+10 and the key bytes of lookup i+4 are fetched while lookup i
  // is answered. hash(i) and word(i) give lookup i; found(i) is called for
  // each one that is correct.
  template <class Hash, class Word, class Found>
  void contains_each(size_t n, Hash&& hash, Word&& word, Found&& found) const {
    constexpr size_t kBucket = 16, kNode = 10, kBytes = 4;  // how far ahead each level is fetched
    for (size_t j = 0; j < n && j < kBucket; ++j) table_.prefetch_bucket(hash(j));
    for (size_t j = 0; j < n; ++j) {
      if (j + kBucket < n) table_.prefetch_bucket(hash(j + kBucket));
      if (j + kNode < n) table_.prefetch_node(hash(j + kNode));
      if (j + kBytes < n) table_.prefetch_key(hash(j + kBytes));
      if (contains(word(j), hash(j))) found(j);
    }
  }

  size_t entries() const { return entries_.size(); }  // lines received, duplicates included
  size_t keys() const { return table_.size(); }
  const std::vector<uint64_t>& hashes() const { return hashes_; }  // one per entry
  size_t raw_bytes() const { return entries_.bytes.size(); }
  // The entries in key form (first byte lowered), duplicates included.
  const WordList& key_words() const { return entries_; }
  // The letter triples of this shard's entries (see TrigramFilter).
  const TrigramFilter& trigrams() const { return trigrams_; }

 private:
  static constexpr uint8_t kExact = 1;    // the key itself is an entry
  static constexpr uint8_t kCapital = 2;  // the key with its first byte raised is an entry

  // Compares bytes after the first, and the first byte lowered: the stored
  // key is already lowered, so the probe needs no copy of the word.
  struct Key {
    std::string_view word;
    uint64_t hash;
  };
  // TBB's hash-compare: the hash is the one word_hash already computed.
  struct KeyCompare {
    size_t hash(const Key& k) const { return static_cast<size_t>(k.hash); }
    bool equal(const Key& a, const Key& b) const {
      if (a.hash != b.hash || a.word.size() != b.word.size()) return false;
      if (a.word.empty()) return true;
      return ascii_lower(a.word[0]) == ascii_lower(b.word[0]) && a.word.substr(1) == b.word.substr(1);
    }
  };
  // concurrent_hash_map (bucket array + chains) over concurrent_unordered_map
  // (split-ordered list): it indexes a dictionary faster, lookups alike
  // (results/design-choices.md, bench/phases_bench).
  using Entry = std::pair<const Key, uint8_t>;
  using Map = tbb::concurrent_hash_map<Key, uint8_t, KeyCompare, ArenaAllocator<Entry>>;
  // TBB's map, plus prefetches along a lookup's path. They use TBB's own
  // bucket addressing (get_bucket and my_mask, protected members meant for
  // derived classes): a prefetch is only a hint, so a bucket still waiting
  // for a lazy rehash merely prefetches nothing useful.
  class Table : public Map {
   public:
    using Map::Map;
    void prefetch_bucket(uint64_t h) const { __builtin_prefetch(bucket_of(h)); }
    void prefetch_node(uint64_t h) const {
      if (const node_base* n = first(h)) __builtin_prefetch(n);
    }
    void prefetch_key(uint64_t h) const {
      if (const node_base* n = first(h))
        __builtin_prefetch(const_cast<node*>(static_cast<const node*>(n))->storage()->first.word.data());
    }

   private:
    const bucket* bucket_of(uint64_t h) const {
      return this->get_bucket(h & this->my_mask.load(std::memory_order_relaxed));
    }
    // The bucket's first node, or null (empty, or a lazy-rehash mark).
    const node_base* first(uint64_t h) const {
      const node_base* n = bucket_of(h)->node_list.load(std::memory_order_relaxed);
      return reinterpret_cast<uintptr_t>(n) > 63 ? n : nullptr;
    }
  };

  Arena arena_;       // the table's nodes; declared first, dies last
  WordList entries_;  // owns the bytes the keys point into
  std::vector<uint64_t> hashes_;
  Table table_;
  TrigramFilter trigrams_;
};

}  // namespace spellcheck
