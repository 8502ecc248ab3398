#include "spellcheck/common/code_points.hpp"

namespace spellcheck {

char32_t fold_case(char32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
  if (c >= 0x100 && c <= 0x17F) {
    // Latin Extended-A pairs capital/small as even/odd, except the run
    // U+0139-U+0148 and U+0179-U+017E (odd/even), and U+0130/U+0131/U+0138/U+0149/U+017F.
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c % 2 == 1) ? c + 1 : c;
    if (c == 0x130 || c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F) return c;
    if (c == 0x178) return 0xFF;
    return (c % 2 == 0) ? c + 1 : c;
  }
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 32;
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  return c;
}

char32_t upper_case(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
  if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 32;
  if (c == 0xFF) return 0x178;
  if (c >= 0x100 && c <= 0x17F) {
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c % 2 == 0) ? c - 1 : c;
    if (c == 0x130 || c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F || c == 0x178) return c;
    return (c % 2 == 1) ? c - 1 : c;
  }
  if (c >= 0x3B1 && c <= 0x3C9 && c != 0x3C2) return c - 32;
  if (c >= 0x430 && c <= 0x44F) return c - 32;
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  return c;
}

CasePattern case_pattern(const char32_t* w, size_t n) {
  size_t letters = 0, capitals = 0;
  bool first_capital = false;
  for (size_t i = 0; i < n; ++i) {
    const bool up = is_upper(w[i]);
    if (up || is_lower(w[i])) {
      if (letters == 0) first_capital = up;
      ++letters;
      capitals += up;
    }
  }
  if (capitals == 0) return CasePattern::lower;
  if (letters >= 2 && capitals == letters) return CasePattern::upper;
  if (first_capital && capitals == 1) return CasePattern::title;
  return CasePattern::mixed;
}

void spell_in_case(const char32_t* w, size_t n, CasePattern p, std::string& out) {
  if (p != CasePattern::upper && p != CasePattern::title) {
    // As it is; ASCII (most words) a byte each, without a check per byte.
    const size_t at = out.size();
    out.resize(at + n);
    size_t i = 0;
    while (i < n && w[i] < 0x80) {
      out[at + i] = static_cast<char>(w[i]);
      ++i;
    }
    out.resize(at + i);
    for (; i < n; ++i) append_utf8(out, w[i]);
    return;
  }
  bool first_letter = true;
  for (size_t i = 0; i < n; ++i) {
    char32_t c = w[i];
    const bool letter = is_upper(c) || is_lower(c);
    if (p == CasePattern::upper || (p == CasePattern::title && first_letter && letter)) c = upper_case(c);
    if (letter) first_letter = false;
    append_utf8(out, c);
  }
}

}  // namespace spellcheck
