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

class Candidates {
 public:
  // Fills the buffer with the edit-1 strings of word. Edits that would repeat
  // an earlier string (deleting either of two equal neighbours, inserting a
  // character next to the same character) are skipped, so every string is
  // generated once.
  void generate(std::string_view word);
  // Hashes every candidate (word_hash) into hashes().
  void hash_all();

  size_t size() const { return edits_.size(); }
  std::string_view operator[](size_t i) const {
    return std::string_view(buf_.data() + i * stride_, length_of(edits_[i]));
  }
  EditRef edit(size_t i) const { return edits_[i]; }
  uint64_t hash(size_t i) const { return hashes_[i]; }

 private:
  size_t length_of(EditRef e) const {
    return e.op() == EditOp::deletion ? len_ - 1 : e.op() == EditOp::substitution ? len_ : len_ + 1;
  }
  char* slot(size_t i) { return buf_.data() + i * stride_; }

  std::vector<char> buf_;  // candidate i at i * stride_
  std::vector<EditRef> edits_;
  std::vector<uint64_t> hashes_;
  size_t stride_ = 0;
  size_t len_ = 0;
};

}  // namespace spellcheck
