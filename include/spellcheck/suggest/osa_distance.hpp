#pragma once
// Restricted Damerau-Levenshtein distance (optimal string alignment):
// insertion, deletion, substitution and transposition of two adjacent
// letters, each costing one, no substring edited twice. Over code points
// (see code_points.hpp), so `naïve` and `naive` are one apart.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace spellcheck {

// The distance between a and b, or max + 1 when it is greater than max
// (rows stop early once every cell of one exceeds max). No allocation for
// words up to kOsaStackLength code points.
inline constexpr size_t kOsaStackLength = 128;
int osa_distance(const char32_t* a, size_t n, const char32_t* b, size_t m, int max);

// The same as osa_distance(a, n, b, m, 1) (0, 1, or 2 for more), without
// the table: one edit leaves the two sides of the first mismatch equal.
// Phonetic keys are compared millions of times per run, nearly always at
// this limit.
template <class Char>
int osa_distance_within_one(const Char* a, size_t n, const Char* b, size_t m) {
  if (n > m) {
    std::swap(a, b);
    std::swap(n, m);
  }
  if (m - n > 1) return 2;
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  if (i == n) return static_cast<int>(m - n);
  auto same = [](const Char* x, const Char* y, size_t k) {
    for (size_t t = 0; t < k; ++t)
      if (x[t] != y[t]) return false;
    return true;
  };
  if (m > n) return same(a + i, b + i + 1, n - i) ? 1 : 2;  // b[i] inserted
  if (same(a + i + 1, b + i + 1, n - i - 1)) return 1;      // substituted
  const bool swapped = i + 1 < n && a[i] == b[i + 1] && a[i + 1] == b[i];
  return swapped && same(a + i + 2, b + i + 2, n - i - 2) ? 1 : 2;
}

// A cheap lower bound for the distance, from the sets of letters two words
// use: every letter of one word that the other lacks needs an edit of its
// own (a deletion or substitution; a transposition adds or removes none).
// Letters map to bits of a 64-bit set (a-z, digits and the apostrophe one
// each, the rest hashed: a shared bit only weakens the bound).
uint64_t letter_set(const char32_t* w, size_t n);
namespace detail {
// Bits set, in a few word operations: without -mpopcnt (the default build
// targets any x86-64) the builtin is a call into libgcc, on every entry
// checked.
inline int bits_set(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}
}  // namespace detail
inline int letter_set_bound(uint64_t a, uint64_t b) {
  const int x = detail::bits_set(a & ~b), y = detail::bits_set(b & ~a);
  return x > y ? x : y;
}

// A stronger bound from how often letters occur: an edit lowers the count
// of at most one letter of the typo that the entry has fewer of, and raises
// at most one that it has more of (a transposition changes no count), so
// max(surplus, shortfall) edits are needed. 32 letter classes (a-z, the
// apostrophe, the rest hashed into 5: a shared class only weakens the
// bound) with counts saturating at 7 (the same argument holds for them),
// four bits each, so the sums are a few word operations.
struct LetterCounts {
  uint64_t half[2] = {0, 0};  // classes 0-15, 16-31
};
LetterCounts letter_counts(const char32_t* w, size_t n);
namespace detail {
// Sum over the 16 four-bit fields of max(0, x - y) (fields at most 7).
inline int nibble_surplus(uint64_t x, uint64_t y) {
  constexpr uint64_t kHigh = 0x8888888888888888ULL, kLow = 0x7777777777777777ULL, kByte = 0x0F0F0F0F0F0F0F0FULL;
  const uint64_t r = (x | kHigh) - y;  // each field 8 + x - y, in [1, 15]: no borrow between fields
  const uint64_t pos = r & kLow & (((r & kHigh) >> 3) * 7);
  const uint64_t bytes = (pos & kByte) + ((pos >> 4) & kByte);
  return static_cast<int>((bytes * 0x0101010101010101ULL) >> 56);
}
}  // namespace detail
inline int letter_count_bound(const LetterCounts& a, const LetterCounts& b) {
  const int surplus = detail::nibble_surplus(a.half[0], b.half[0]) + detail::nibble_surplus(a.half[1], b.half[1]);
  const int shortfall = detail::nibble_surplus(b.half[0], a.half[0]) + detail::nibble_surplus(b.half[1], a.half[1]);
  return surplus > shortfall ? surplus : shortfall;
}

// One word checked against many (the ranked index checks hundreds of
// entries per misspelled word): Hyyrö's bit-parallel OSA distance, one
// pass of a few word operations per code point of the other word instead
// of a row of the table. Words over 64 code points fall back to the table.
class OsaPattern {
 public:
  void assign(const char32_t* a, size_t n);
  // The distance to b, or max + 1 when it is greater than max.
  int distance(const char32_t* b, size_t m, int max) const;

 private:
  uint64_t match(char32_t c) const {
    if (c < 128) return ascii_[c];
    for (size_t i = 0; i < other_chars_; ++i)
      if (other_[i] == c) return other_mask_[i];
    return 0;
  }
  std::vector<char32_t> a_;  // the word (the table fallback needs it, and clearing)
  size_t n_ = 0;
  uint64_t ascii_[128] = {};
  char32_t other_[64] = {};
  uint64_t other_mask_[64] = {};
  size_t other_chars_ = 0;
};

// The edits of one optimal alignment of a misspelling `typo` with a
// dictionary word `word`, as the error model sees them. Insertions are
// letters of the word the typist left out; deletions are letters the typist
// added.
struct EditProfile {
  uint8_t distance = 0;
  uint8_t transpositions = 0;
  uint8_t substitutions = 0;           // all substitutions, of which:
  uint8_t keyboard_substitutions = 0;  //   the two keys touch on a QWERTY keyboard
  uint8_t vowel_substitutions = 0;     //   a vowel for a vowel
  uint8_t insertions = 0;              // all letters left out, of which:
  uint8_t double_insertions = 0;       //   one of a doubled pair (`acomodate`)
  uint8_t deletions = 0;               // all letters added, of which:
  uint8_t double_deletions = 0;        //   a letter repeated (`untill`)
  uint8_t first_letter = 0;            // an edit at the first letter
};

// The profile of an optimal alignment (ties broken in a fixed order:
// match, transposition, substitution, insertion, deletion). Words longer
// than kOsaStackLength get a profile of substitutions only.
// distance: the words' osa_distance if the caller knows it (-1: not known);
// only the table's cells that far from its diagonal are then filled, since
// an optimal alignment never leaves them (the profile is the same).
EditProfile edit_profile(const char32_t* typo, size_t n, const char32_t* word, size_t m, int distance = -1);

}  // namespace spellcheck
