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

#include "spellcheck/word_hash.hpp"

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

// The candidate an edit makes of word.
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
  // generated once.
  void generate(std::string_view word);

  size_t size() const { return edits_.size(); }
  EditRef edit(size_t i) const { return edits_[i]; }
  uint64_t hash(size_t i) const { return hashes_[i]; }
  // Spells candidate i into out (room for word.size() + 1 bytes).
  std::string_view spell(size_t i, char* out) const;
  std::string_view word() const { return word_; }

 private:
  void add(EditRef e, size_t len) {
    edits_.push_back(e);
    hashes_.push_back(XXH3_64bits(scratch_.data(), len));
  }

  std::string word_;
  std::string scratch_;
  std::vector<EditRef> edits_;
  std::vector<uint64_t> hashes_;
};

}  // namespace spellcheck
