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
  static constexpr size_t kPlane = kBits / 64;  // 64-bit words in one view
  static constexpr size_t kWords = 3 * kPlane;
  // The 62 symbols of the candidate alphabet (symbol i is kAlphabet[i]).
  static constexpr uint64_t kAlphabetMask = (uint64_t{1} << 62) - 1;

  TrigramFilter() { bits_.fill(0); }

  // Symbol of a byte.
  static uint32_t symbol(unsigned char c) { return kSymbol[c]; }

  void add_entry(std::string_view entry);
  bool has(uint32_t a, uint32_t b, uint32_t c) const { return (last(a, b) >> c) & 1U; }
  // The same triples seen three ways, each a 64-bit mask over one position,
  // so an edit tests all 62 characters at once:
  // last(a, b): bit c set iff (a, b, c) occurs; middle(a, c): bit b set iff
  // (a, b, c) occurs; first(b, c): bit a set iff (a, b, c) occurs.
  uint64_t last(uint32_t a, uint32_t b) const { return bits_[(a << 6) | b]; }
  uint64_t middle(uint32_t a, uint32_t c) const { return bits_[kPlane + ((a << 6) | c)]; }
  uint64_t first(uint32_t b, uint32_t c) const { return bits_[2 * kPlane + ((b << 6) | c)]; }
  // Every triple of the word (with boundaries) present?
  bool may_contain(std::string_view w) const;

  uint64_t* data() { return bits_.data(); }
  const uint64_t* data() const { return bits_.data(); }
  size_t words() const { return kWords; }
  double density() const;

 private:
  void set(uint32_t a, uint32_t b, uint32_t c) {
    bits_[(a << 6) | b] |= uint64_t{1} << c;
    bits_[kPlane + ((a << 6) | c)] |= uint64_t{1} << b;
    bits_[2 * kPlane + ((b << 6) | c)] |= uint64_t{1} << a;
  }
  void add_spelling(std::string_view w);

  static const std::array<uint8_t, 256> kSymbol;
  std::array<uint64_t, kWords> bits_;
};

}  // namespace spellcheck
