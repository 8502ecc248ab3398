#pragma once
// Words the reader may leave out of --per-document's word counts because
// they are in the dictionary: counting every word of every document costs
// far more than counting the few that may be misspelled. The dictionary's
// keys (word_hash.hpp: first byte lowered) by hash, on every rank: 8 bytes
// an entry, not the words (no rank holds the dictionary). SPEC's rule: a
// word is in the dictionary when it is an entry, or is one with its first
// byte lowered; so a word starting with an ASCII capital is correct when
// its key is any entry's key, any other word when its key is an entry
// itself ("exact").
//
// Hashes can collide: a misspelled word may look known here. The caller
// checks the reported words against the same set after judging and, when
// one of them was left out, counts the documents again without it.
#include <cstdint>
#include <string_view>
#include <vector>

namespace spellcheck {

class KnownWords {
 public:
  KnownWords() = default;
  // keys: word_hash of every entry; exact: those of entries equal to their
  // key. SPELLCHECK_KNOWN_HASH_BITS=N (tests) keeps N bits of each hash,
  // so that collisions happen.
  KnownWords(const std::vector<uint64_t>& keys, const std::vector<uint64_t>& exact);

  bool empty() const { return slots_.empty(); }
  // w is in the dictionary, unless a hash collided.
  bool probably_correct(std::string_view w) const;
  // The same for n words (out[i] for words[i]), their lookups overlapped.
  void probably_correct(const std::string_view* words, size_t n, uint8_t* out) const;

 private:
  // Open addressing over the hashes themselves: a slot holds a key's hash
  // with its lowest bit replaced by "exact" (0 stands for empty; hashes
  // are compared without that bit). About 13 bytes an entry.
  static constexpr uint64_t kExact = 1;
  uint64_t home(uint64_t h) const;
  void insert(uint64_t h, bool exact);
  // The slot value for h (its exact bit clear), 0 if none.
  uint64_t find(uint64_t h) const;
  uint64_t hash_of(std::string_view w) const;
  bool correct(std::string_view w, uint64_t found) const;

  uint64_t keep_ = ~uint64_t{0};  // the hash bits used
  std::vector<uint64_t> slots_;
  uint64_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace spellcheck
