#pragma once
// What the markup filters share: the cursor that blanks, drops and decodes
// in place (markup_filter.hpp's contract), and accented letters composed
// from an accent and a base letter (TeX's \'e, nroff's \('e).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "spellcheck/input/markup_filter.hpp"
#include "spellcheck/input/tokenizer.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace spellcheck {

// The first position in [i, n) holding one of the bytes Stops..., else n:
// 16 bytes at a time (prose runs long between a filter's special bytes, and
// a byte-at-a-time loop was most of the filters' time).
template <unsigned char... Stops>
inline size_t find_stop(const unsigned char* p, size_t i, size_t n) noexcept {
#if defined(__x86_64__)
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i hit = _mm_setzero_si128();
    ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(Stops))))), ...);
    if (const int m = _mm_movemask_epi8(hit)) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(m)));
  }
#endif
  for (; i < n; ++i)
    if (((p[i] == Stops) || ...)) return i;
  return n;
}

// A bounded view of the bytes from a construct's start; reading past them
// records that the construct may be cut (the filter then waits for more).
struct Peek {
  const unsigned char* p;
  size_t avail;
  bool cut = false;
  int operator[](size_t i) {
    if (i < avail) return p[i];
    cut = true;
    return -1;
  }
  // The index of the first `close` at or after i (not past a newline or
  // limit bytes); 0 when there is none.
  size_t find(size_t i, int close, size_t limit) {
    for (const size_t e = i + limit; i < e; ++i) {
      const int ch = (*this)[i];
      if (ch == close) return i;
      if (ch < 0 || ch == '\n') return 0;
    }
    return 0;
  }
  // The end of the ASCII letters from i (at most limit of them).
  size_t letters_end(size_t i, size_t limit) {
    for (const size_t e = i + limit; i < e;) {
      const int ch = (*this)[i];
      if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) break;
      ++i;
    }
    return i;
  }
};

// Bytes that continue a word whose tail is being moved up after a decoded
// construct: letters, digits, the apostrophe and UTF-8 bytes.
inline bool continues_word(unsigned char b) noexcept { return b >= 0x80 || tok_detail::kClass[b] != tok_detail::kSep; }

// Reads buf at r, writes at w <= r. While w < r a word is being compacted:
// its bytes move up by r - w; the first byte that does not continue it
// blanks the gap [w, r) first. A construct that is dropped or decoded holds
// no '\n', so the gap never holds one.
struct FilterCursor {
  unsigned char* b;
  size_t n;
  size_t w = 0;
  size_t r = 0;

  bool compacting() const { return w != r; }
  void flush() {
    if (w < r) std::memset(b + w, ' ', r - w);
    w = r;
  }
  // len bytes of prose.
  void keep(size_t len) {
    const size_t e = r + len;
    for (; w != r && r < e; ++r) {
      if (!continues_word(b[r])) {
        flush();  // the rest is in place
        break;
      }
      b[w++] = b[r];
    }
    if (w == r) w = r = e;
  }
  // len bytes that are not prose: ' ', '\n' kept.
  void blank(size_t len) {
    flush();
    if (len <= 16) {  // an escape or a macro's name: no library calls
      for (const size_t e = r + len; r < e; ++r) b[r] = b[r] == '\n' ? '\n' : ' ';
      w = r;
      return;
    }
    for (const size_t e = r + len; r < e;) {
      const void* nl = std::memchr(b + r, '\n', e - r);
      const size_t stop = nl ? static_cast<size_t>(static_cast<const unsigned char*>(nl) - b) : e;
      std::memset(b + r, ' ', stop - r);
      r = nl ? stop + 1 : e;
    }
    w = r;
  }
  // A zero-width construct of len bytes (no '\n' in it): joins what is
  // around it.
  void drop(size_t len) { r += len; }
  // A construct of len bytes decoded to s[0, k), k <= len (no '\n').
  void put(const unsigned char* s, size_t k, size_t len) {
    std::memmove(b + w, s, k);
    w += k;
    r += len;
  }
  // The piece ends: returns k (bytes [0, k) final) and sets gap to the
  // bytes at k already consumed. Gives up compacting when that would hold
  // back too much.
  size_t finish(bool at_end, size_t& gap) {
    if (at_end || n - w > kMarkupMaxHeld) flush();
    gap = r - w;
    return w;
  }
};

// Accents a filter can compose with a base letter.
enum class Accent : uint8_t {
  acute,
  grave,
  circumflex,
  diaeresis,
  tilde,
  cedilla,
  caron,
  double_acute,
  macron,
  dot,
  breve,
  ogonek,
  ring,
  none
};

// Per accent: ASCII base letters, each followed by its accented letter
// (2 bytes of UTF-8).
inline constexpr const char* kAccented[] = {
    "AÁaáEÉeéIÍiíOÓoóUÚuúYÝyýCĆcćNŃnńSŚsśZŹzźLĹlĺRŔrŕ",
    "AÀaàEÈeèIÌiìOÒoòUÙuù",
    "AÂaâEÊeêIÎiîOÔoôUÛuûCĈcĉGĜgĝHĤhĥJĴjĵSŜsŝWŴwŵYŶyŷ",
    "AÄaäEËeëIÏiïOÖoöUÜuüyÿYŸ",
    "AÃaãNÑnñOÕoõIĨiĩUŨuũ",
    "CÇcçSŞsşTŢtţGĢgģKĶkķLĻlļNŅnņRŖrŗ",
    "CČcčDĎdďEĚeěNŇnňRŘrřSŠsšTŤtťZŽzžLĽlľ",
    "OŐoőUŰuű",
    "AĀaāEĒeēIĪiīOŌoōUŪuū",
    "CĊcċEĖeėGĠgġIİZŻzż",
    "AĂaăGĞgğUŬuŭ",
    "AĄaąEĘeęIĮiįUŲuų",
    "AÅaåUŮuů",
};

// The accented letter for base (ASCII) in UTF-8, written to out[0, 2);
// returns its length, 0 when there is none.
inline size_t compose_accent(Accent a, unsigned char base, unsigned char* out) noexcept {
  if (a == Accent::none) return 0;
  for (const char* p = kAccented[static_cast<int>(a)]; *p; p += 3) {
    if (static_cast<unsigned char>(*p) != base) continue;
    out[0] = static_cast<unsigned char>(p[1]);
    out[1] = static_cast<unsigned char>(p[2]);
    return 2;
  }
  return 0;
}

}  // namespace spellcheck
