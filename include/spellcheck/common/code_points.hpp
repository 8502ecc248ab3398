#pragma once
// Words as code points, for ranked suggestions: distance counts letters, not
// bytes (`naïve` -> `naive` is one substitution), and case is folded per
// letter (`ÉCOLE` -> `école`). Decoding (common/utf8.hpp) never fails, so
// invalid input still has a distance.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "spellcheck/common/utf8.hpp"

namespace spellcheck {

// Simple case mapping for the scripts a dictionary of European languages
// holds: ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic capitals.
// Everything else maps to itself.
char32_t fold_case(char32_t c);
char32_t upper_case(char32_t c);
inline bool is_upper(char32_t c) { return fold_case(c) != c; }
inline bool is_lower(char32_t c) { return upper_case(c) != c; }

// How a word is capitalised, for case-aware judging and for giving
// suggestions the word's own pattern (`Teh` -> `The`, `TEH` -> `THE`).
enum class CasePattern : uint8_t {
  lower,  // no capital (or no letter)
  title,  // first letter a capital, no other capital
  upper,  // two or more letters, all capitals
  mixed,  // anything else (`iPhone`, `McDonald`)
};
CasePattern case_pattern(const char32_t* w, size_t n);

// Spells the code points of an entry in pattern p: upper raises every
// letter, title the first, lower and mixed keep the entry as it is (a
// proper noun keeps its capital).
void spell_in_case(const char32_t* w, size_t n, CasePattern p, std::string& out);

}  // namespace spellcheck
