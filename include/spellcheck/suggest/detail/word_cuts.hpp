#pragma once
// Where a word may be cut in two (split_words.hpp, merge_words.hpp).
#include <algorithm>
#include <cstddef>
#include <string_view>

namespace spellcheck::detail {

inline bool ascii_non_letter(unsigned char c) { return c < 0x80 && !((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }

// A word is cut between two letters (not inside a UTF-8 sequence, not at
// an apostrophe, hyphen or digit).
inline bool cuttable(std::string_view w, size_t at) {
  const auto a = static_cast<unsigned char>(w[at - 1]), b = static_cast<unsigned char>(w[at]);
  return (b & 0xC0) != 0x80 && !ascii_non_letter(a) && !ascii_non_letter(b);
}

// A capital after the first letter: an identifier ("WebServer", "isTrue"),
// written as one on purpose.
inline bool inner_capital(std::string_view w) {
  return std::any_of(w.begin() + 1, w.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

// A part of one letter (one UTF-8 sequence).
inline bool one_letter(std::string_view part) {
  const auto c = static_cast<unsigned char>(part[0]);
  const size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  return part.size() <= n;
}

}  // namespace spellcheck::detail
