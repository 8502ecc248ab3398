#pragma once
// Restricted Damerau-Levenshtein distance (optimal string alignment):
// insertion, deletion, substitution and transposition of two adjacent
// letters, each costing one, no substring edited twice. Over code points
// (see code_points.hpp), so `naïve` and `naive` are one apart.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace spellcheck {

// The distance between a and b, or max + 1 when it is greater than max
// (rows stop early once every cell of one exceeds max). No allocation for
// words up to kOsaStackLength code points.
inline constexpr size_t kOsaStackLength = 128;
int osa_distance(const char32_t* a, size_t n, const char32_t* b, size_t m, int max);

// A cheap lower bound for the distance, from the sets of letters two words
// use: every letter of one word that the other lacks needs an edit of its
// own (a deletion or substitution; a transposition adds or removes none).
// Letters map to bits of a 64-bit set (a-z, digits and the apostrophe one
// each, the rest hashed: a shared bit only weakens the bound).
uint64_t letter_set(const char32_t* w, size_t n);
inline int letter_set_bound(uint64_t a, uint64_t b) {
  const int x = __builtin_popcountll(a & ~b), y = __builtin_popcountll(b & ~a);
  return x > y ? x : y;
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
EditProfile edit_profile(const char32_t* typo, size_t n, const char32_t* word, size_t m);

}  // namespace spellcheck
