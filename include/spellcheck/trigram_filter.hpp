#pragma once
// TrigramFilter: which letter triples occur in dictionary words, over a
// 64-symbol alphabet (a-z, A-Z, 0-9, word boundary, any other byte), as a
// 32 KB bitmap that stays in L1/L2 cache. A candidate with a triple that no
// entry has cannot be an entry, so most candidates are dropped before they
// are even hashed: a digit or capital in mid-word, "qzx", and every edit of a
// word whose misspelling lies elsewhere. Exact: no false negatives.
//
// The case rule: a word is correct if it is an entry or its first byte
// lowered is one, so each entry adds its triples and those of its
// capitalised form; candidates are then checked exactly as spelled.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace spellcheck {

class TrigramFilter {
 public:
  static constexpr uint32_t kBoundary = 62;
  static constexpr uint32_t kOther = 63;
  static constexpr size_t kBits = 64 * 64 * 64;
  static constexpr size_t kWords = kBits / 64;

  TrigramFilter() { bits_.fill(0); }

  // Symbol of a byte.
  static uint32_t symbol(unsigned char c) { return kSymbol[c]; }

  void add_entry(std::string_view entry);
  bool has(uint32_t a, uint32_t b, uint32_t c) const {
    const uint32_t t = (a << 12) | (b << 6) | c;
    return (bits_[t >> 6] >> (t & 63)) & 1U;
  }
  // Every triple of the word (with boundaries) present?
  bool may_contain(std::string_view w) const;

  uint64_t* data() { return bits_.data(); }
  size_t words() const { return kWords; }
  double density() const;

 private:
  void set(uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t t = (a << 12) | (b << 6) | c;
    bits_[t >> 6] |= uint64_t{1} << (t & 63);
  }
  void add_spelling(std::string_view w);

  static const std::array<uint8_t, 256> kSymbol;
  std::array<uint64_t, kWords> bits_;
};

}  // namespace spellcheck
