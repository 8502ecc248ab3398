#pragma once
// Candidates: every distinct string at edit distance exactly one from a word
// (deletion, substitution by a different character, insertion; alphabet
// a-z A-Z 0-9), generated into a reusable buffer: no allocation per
// candidate, and after the first long word none per word either. An EditRef
// (4 bytes) regenerates a candidate later, so hits keep no strings.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/affix_filter.hpp"
#include "spellcheck/dictionary/trigram_filter.hpp"

namespace spellcheck {

inline constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

enum class EditOp : uint8_t { deletion = 0, substitution = 1, insertion = 2 };

// op (2 bits) | alphabet index (6 bits) | position (24 bits).
struct EditRef {
  uint32_t bits = 0;
  static EditRef make(EditOp op, uint32_t ch, uint32_t pos) {
    return EditRef{static_cast<uint32_t>(op) | (ch << 2) | (pos << 8)};
  }
  EditOp op() const { return static_cast<EditOp>(bits & 3U); }
  uint32_t ch() const { return (bits >> 2) & 63U; }
  uint32_t pos() const { return bits >> 8; }
};

// A candidate of word `word` (an index into this rank's misspelled words),
// made by `edit`: what the lookups confirm and the report spells out.
struct Slot {
  uint32_t word;
  EditRef edit;
};

// The candidate an edit makes of word, spelled into out (room for
// word.size() + 1 bytes).
std::string_view spell_edit(std::string_view word, EditRef e, char* out);
// The same as a string.
std::string apply_edit(std::string_view word, EditRef e);

// The edit-1 strings of one word with their hashes. Strings are not kept:
// they are built in place in one small scratch buffer, each from the last by
// changing one or two bytes, and hashed there in key form (first byte
// lowered, see word_hash). The few that pass the filter are spelled again
// from their EditRef.
class Candidates {
 public:
  // Generates every edit of word with its hash. Edits that would repeat an
  // earlier string (deleting either of two equal neighbours, inserting a
  // character next to the same character) are skipped, so each string is
  // generated once. With a trigram filter, edits that make a string with a
  // triple no entry has are dropped before hashing (counted in pruned()),
  // and with an affix filter, edits outside the word's window of useful
  // positions too.
  void generate(std::string_view word, const TrigramFilter* trigrams = nullptr, const AffixFilter* affixes = nullptr);
  // Distinct edit strings of the last word, kept or pruned.
  size_t generated() const { return generated_; }
  size_t pruned() const { return generated_ - n_; }

  size_t size() const { return n_; }
  EditRef edit(size_t i) const { return edits_[i]; }
  uint64_t hash(size_t i) const { return hashes_[i]; }
  // Spells candidate i into out (room for word.size() + 1 bytes).
  std::string_view spell(size_t i, char* out) const { return spell_edit(word_, edits_[i], out); }
  std::string_view word() const { return word_; }

 private:
  // The steps of generate, for word w whose useful edit positions are
  // [from, reach] (the affix filter's window).
  void mark_trigrams(std::string_view w, const TrigramFilter* trigrams);
  void add_deletions(std::string_view w, const TrigramFilter* trigrams, size_t reach, size_t from);
  void add_substitutions(std::string_view w, const TrigramFilter* trigrams, size_t reach, size_t from);
  void add_insertions(std::string_view w, const TrigramFilter* trigrams, size_t reach, size_t from);
  // Triples k..L of the word all present (beyond L: none to check).
  bool suffix_ok(size_t k, size_t L) const { return k > L ? true : ok_suf_[k] != 0; }
  void add(EditRef e, size_t len) {
    edits_[n_] = e;
    hashes_[n_] = XXH3_64bits(scratch_.data(), len);
    ++n_;
  }

  std::string word_;
  std::string scratch_;
  std::vector<uint32_t> sym_;    // trigram symbols, two boundaries before, two after
  std::vector<uint8_t> ok_pre_;  // ok_pre_[k]: triples 0..k-1 of the word all present
  std::vector<uint8_t> ok_suf_;  // ok_suf_[k]: triples k..L all present
  size_t generated_ = 0;
  std::vector<EditRef> edits_;
  std::vector<uint64_t> hashes_;
  size_t n_ = 0;
};

}  // namespace spellcheck
