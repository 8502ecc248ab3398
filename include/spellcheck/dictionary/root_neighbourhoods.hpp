#pragma once
// One rank's part of a hunspell dictionary: for each fold key this rank
// owns, the entries whose forms have that key (affix_forms.hpp). A word's
// case variants share its key, so checking a simple word needs one probe
// on one rank; a compound asks for its parts' keys (hunspell_judge.hpp).
// Entries are stored once per rank; a key's members are pointers to them,
// sorted by spelling, then homonym order.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "spellcheck/dictionary/affix_text.hpp"
#include "spellcheck/dictionary/bloom_filter.hpp"
#include "spellcheck/dictionary/detail/hash_directory.hpp"
#include "spellcheck/dictionary/roots.hpp"
#include "spellcheck/dictionary/stem_file.hpp"

namespace spellcheck {

// The key of a string (internal form): XXH3 of its fold key.
uint64_t neighbourhood_key(const LetterCase& cases, std::string_view word);

// (key, entry) pairs: which neighbourhood an entry belongs to.
struct KeyedEntry {
  uint64_t key;
  uint32_t entry;  // index into the entries given with it
};

// Entries as a compiled load reads them (compiled_hunspell.hpp): their
// words and flags in two flat arrays, no allocation per entry.
struct PackedEntries {
  struct Entry {
    uint64_t order = 0;  // StemEntry::order
    uint32_t word_at = 0, flags_at = 0;
    uint16_t word_bytes = 0, flag_count = 0;
  };
  std::string words;
  std::vector<Flag> flags;  // each entry's sorted
  std::vector<Entry> entries;
  size_t size() const { return entries.size(); }
  // Appends one: its word and flags go to the arrays.
  void add(uint64_t order, std::string_view word, std::string_view flag_bytes);
};

class RootNeighbourhoods {
 public:
  RootNeighbourhoods() = default;
  RootNeighbourhoods(RootNeighbourhoods&&) = default;
  RootNeighbourhoods& operator=(RootNeighbourhoods&&) = default;

  // entries: distinct (by order); pairs name their keys, repeats allowed.
  void build(std::vector<StemEntry> entries, std::vector<KeyedEntry> pairs);
  // The same from pairs already in order: each key's members together, in
  // member order (spelling, then homonym order), no pair twice -- as a
  // compiled file keeps them (serialize's order, key by key).
  void build_grouped(PackedEntries entries, const std::vector<KeyedEntry>& pairs);
  // The members of key (empty when this rank has none).
  RootList find(uint64_t key) const;
  // The members spelled word, within one key's members.
  static RootList spelled(RootList members, std::string_view word);

  size_t keys() const { return key_list_.size(); }
  size_t entries() const { return roots_.size(); }
  size_t members() const { return members_.size(); }
  uint64_t bytes() const;
  const std::vector<uint64_t>& key_list() const { return key_list_; }
  const std::vector<StemEntry>& entry_list() const { return entries_; }

  // The wire form of one key's members: [u32 count] then per member
  // [u64 order][u16 word bytes][word][u16 flags][flags].
  void serialize(uint64_t key, std::string& out) const;

 private:
  void set_entries(std::vector<StemEntry> entries);  // entries_ and their roots_
  // members_, key_list_ and index_ from pairs in build_grouped's order.
  void link(const std::vector<KeyedEntry>& pairs);

  std::vector<StemEntry> entries_;  // (built from a .dic)
  PackedEntries packed_;            // (read from a compiled file)
  std::vector<Root> roots_;
  std::vector<const Root*> members_;
  std::vector<uint64_t> key_list_;
  HashDirectory index_;  // key -> members_ [begin, end)
};

// Neighbourhoods fetched from other ranks, kept in the same form.
class FetchedNeighbourhoods {
 public:
  // Reads a reply: keys[i]'s members, serialized in turn.
  void add(const std::vector<uint64_t>& keys, std::string_view bytes);
  // nullptr when key was never fetched; an empty list when it has no members.
  const std::vector<const Root*>* find(uint64_t key) const;
  size_t keys() const { return index_.size(); }
  void clear();

 private:
  struct Block {
    std::vector<StemEntry> entries;
    std::vector<Root> roots;
  };
  std::vector<std::unique_ptr<Block>> blocks_;  // stable: Roots never move
  std::unordered_map<uint64_t, std::vector<const Root*>> index_;
};

// A RootSource over neighbourhoods: local ones, fetched ones, and keys it
// knows are empty. A key it cannot answer is recorded as missing (and
// treated as empty for now): the check's answer then does not count, and
// the caller fetches the missing keys and checks again.
class NeighbourhoodSource : public RootSource {
 public:
  // filter: every rank's keys, segment r for rank r's (owner_of(key));
  // a key it does not hold exists nowhere. fetched: may be null.
  NeighbourhoodSource(const LetterCase& cases, const RootNeighbourhoods& local, const FetchedNeighbourhoods* fetched,
                      const BloomFilter& filter, int rank, int ranks);
  // Before each check.
  void reset();
  bool prepare(std::string_view s) override;
  RootList homonyms(std::string_view word) override;
  bool may_be_spelled(std::string_view head, std::string_view tail) override;
  const std::vector<uint64_t>& missing() const { return missing_; }

 private:
  const LetterCase& cases_;
  const RootNeighbourhoods& local_;
  const FetchedNeighbourhoods* fetched_;
  const BloomFilter& filter_;
  int rank_, ranks_;
  // This check's keys: those with members, searched by homonyms() and
  // may_be_spelled(), apart from the (many more) without, which only spare
  // a second look-up (a compound check prepares every split of a word).
  std::vector<std::pair<uint64_t, RootList>> prepared_;
  std::vector<uint64_t> empty_;
  std::vector<uint64_t> missing_;
  std::vector<std::unique_ptr<std::vector<const Root*>>> merged_;  // homonyms found in several keys
  std::string key_scratch_;
};

}  // namespace spellcheck
