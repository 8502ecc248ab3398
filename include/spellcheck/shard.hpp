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

#include "spellcheck/arena.hpp"
#include "spellcheck/trigram_filter.hpp"
#include "spellcheck/word_hash.hpp"
#include "spellcheck/word_list.hpp"

namespace spellcheck {

class Shard {
 public:
  Shard() : table_(ArenaAllocator<Entry>(&arena_)) {}
  Shard(const Shard&) = delete;
  Shard& operator=(const Shard&) = delete;

  // Takes this rank's entries (and their word_hash, computed here if not
  // given) and indexes them with OpenMP threads; duplicates are harmless.
  // The hashes are kept for the filter.
  void build(WordList entries, std::vector<uint64_t> hashes = {});

  // SPEC: word is correct if it is an entry, or if its first byte is A-Z
  // and the word with that byte lowered is an entry. h = word_hash(word).
  bool contains(std::string_view word, uint64_t h) const {
    Table::const_accessor acc;
    if (!table_.find(acc, Key{word, h})) return false;
    const uint8_t flags = acc->second;
    return is_ascii_upper(static_cast<unsigned char>(word[0])) || (flags & kExact) != 0;
  }

  size_t entries() const { return entries_.size(); }   // lines received, duplicates included
  size_t keys() const { return table_.size(); }
  const std::vector<uint64_t>& hashes() const { return hashes_; }  // one per entry
  size_t raw_bytes() const { return entries_.bytes.size(); }
  size_t table_bytes() const { return arena_.bytes_reserved(); }
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
  // (split-ordered list): measured 500 vs 750 ms to index the 663k-entry
  // dictionary on one thread here (bench/phases_bench), lookups alike.
  using Entry = std::pair<const Key, uint8_t>;
  using Table = tbb::concurrent_hash_map<Key, uint8_t, KeyCompare, ArenaAllocator<Entry>>;

  Arena arena_;                    // the table's nodes; declared first, dies last
  WordList entries_;               // owns the bytes the keys point into
  std::vector<uint64_t> hashes_;
  Table table_;
  TrigramFilter trigrams_;
};

}  // namespace spellcheck
