#pragma once
// The document-mode tokenizer (SPEC.md "Tokenizer"), header-only so the
// per-token callback inlines into the scanning loop.
//
// ASCII bytes go through a 256-entry class table; only bytes >= 0x80 are
// UTF-8 decoded. No allocation in the loop: tokens are views into the text,
// except tokens holding U+2019 as their apostrophe, which are handed over
// normalised (U+2019 -> ') from a small reusable buffer.
//
// Streaming: scan_tokens(text, /*at_end=*/false, f) treats text as a prefix
// of a longer stream. It reports only tokens that cannot change when more
// bytes follow, and returns the offset where scanning must resume (the start
// of the token or UTF-8 sequence still open at the end; text.size() when
// nothing is open). Re-scan from there with more bytes appended.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace spellcheck {

namespace tok_detail {

enum : uint8_t {
  kSep = 0,    // separates tokens (ASCII punctuation/space/control, bytes that never start a valid sequence)
  kAlnum = 1,  // A-Z a-z 0-9
  kApos = 2,   // '
  kLead = 3,   // 0xC2..0xF4: may start a multi-byte word character
};

constexpr std::array<uint8_t, 256> make_class_table() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    uint8_t k = kSep;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) k = kAlnum;
    else if (c == '\'') k = kApos;
    else if (c >= 0xC2 && c <= 0xF4) k = kLead;
    t[static_cast<size_t>(c)] = k;
  }
  return t;
}

inline constexpr std::array<uint8_t, 256> kClass = make_class_table();

// Code points of multi-byte sequences that are NOT word characters.
constexpr bool is_excluded_code_point(uint32_t cp) noexcept {
  if (cp < 0x800) return cp <= 0xBF || cp == 0xD7 || cp == 0xF7;
  if (cp < 0x10000) {
    if (cp < 0x2000) return false;
    if (cp <= 0x2BFF) return true;
    if (cp < 0x3000) return false;
    if (cp <= 0x303F) return true;
    if (cp < 0xFE00) return false;
    if (cp <= 0xFE6F) return true;
    if (cp == 0xFEFF) return true;
    if (cp < 0xFF00) return false;
    return cp <= 0xFF0F || (cp >= 0xFF1A && cp <= 0xFF20) || (cp >= 0xFF3B && cp <= 0xFF40) ||
           (cp >= 0xFF5B && cp <= 0xFF65);
  }
  return cp >= 0x1F000 && cp <= 0x1FAFF;
}

// p[0] >= 0x80, p < end. Returns the length (2..4) of the word character
// starting at p; 0 when p does not start a word character (invalid byte,
// invalid sequence, or an excluded code point); -1 when the bytes up to end
// are a valid but incomplete prefix of a sequence (undecided in a stream;
// a separator at the real end of the text).
inline int multibyte_word_len(const unsigned char* p, const unsigned char* end) noexcept {
  const uint32_t b0 = p[0];
  const size_t avail = static_cast<size_t>(end - p);
  if (b0 < 0xC2 || b0 > 0xF4) return 0;
  if (avail < 2) return -1;
  const uint32_t b1 = p[1];
  if (b0 < 0xE0) {
    if ((b1 & 0xC0) != 0x80) return 0;
    const uint32_t cp = ((b0 & 0x1F) << 6) | (b1 & 0x3F);
    return is_excluded_code_point(cp) ? 0 : 2;
  }
  if (b0 < 0xF0) {
    const uint32_t lo = b0 == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
    const uint32_t hi = b0 == 0xED ? 0x9F : 0xBF;  // no surrogates
    if (b1 < lo || b1 > hi) return 0;
    if (avail < 3) return -1;
    const uint32_t b2 = p[2];
    if ((b2 & 0xC0) != 0x80) return 0;
    const uint32_t cp = ((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F);
    return is_excluded_code_point(cp) ? 0 : 3;
  }
  const uint32_t lo = b0 == 0xF0 ? 0x90 : 0x80;  // no overlong forms
  const uint32_t hi = b0 == 0xF4 ? 0x8F : 0xBF;  // at most U+10FFFF
  if (b1 < lo || b1 > hi) return 0;
  if (avail < 3) return -1;
  const uint32_t b2 = p[2];
  if ((b2 & 0xC0) != 0x80) return 0;
  if (avail < 4) return -1;
  const uint32_t b3 = p[3];
  if ((b3 & 0xC0) != 0x80) return 0;
  const uint32_t cp = ((b0 & 0x07) << 18) | ((b1 & 0x3F) << 12) | ((b2 & 0x3F) << 6) | (b3 & 0x3F);
  return is_excluded_code_point(cp) ? 0 : 4;
}

// Length of the word character at p (p < end), as multibyte_word_len.
inline int word_char_len(const unsigned char* p, const unsigned char* end) noexcept {
  const uint8_t c = kClass[*p];
  if (c == kAlnum) return 1;
  if (c == kLead) return multibyte_word_len(p, end);
  return 0;
}

inline bool is_rsquo(const unsigned char* p, const unsigned char* end) noexcept {
  return end - p >= 3 && p[0] == 0xE2 && p[1] == 0x80 && p[2] == 0x99;
}

}  // namespace tok_detail

// An ASCII byte that is neither a letter, a digit nor '\'': no token and no
// UTF-8 sequence can include it, so a stream may be cut right before it
// without changing any token.
constexpr bool is_safe_split(unsigned char b) noexcept { return b < 0x80 && tok_detail::kClass[b] == tok_detail::kSep; }

// ASCII white space: a safe split byte that no URL, address or path holds
// either (where a document is cut when the url filter is on).
constexpr bool is_space_split(unsigned char b) noexcept { return b == ' ' || (b >= '\t' && b <= '\r'); }

// True when the code point is a word character (ASCII letter/digit, or a
// non-ASCII code point outside the SPEC's punctuation/symbol blocks).
// Surrogates and values above U+10FFFF are not.
constexpr bool is_word_code_point(uint32_t cp) noexcept {
  if (cp < 0x80) return tok_detail::kClass[cp] == tok_detail::kAlnum;
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
  return !tok_detail::is_excluded_code_point(cp);
}

// True when the token holds an ASCII digit (--filter digits: not a word).
inline bool has_ascii_digit(std::string_view tok) noexcept {
  for (const char ch : tok)
    if (static_cast<unsigned char>(ch - '0') <= 9) return true;
  return false;
}

// True when every byte of w is an ASCII digit (and w is not empty).
inline bool is_ascii_number(std::string_view w) noexcept {
  if (w.empty()) return false;
  for (const char ch : w)
    if (static_cast<unsigned char>(ch - '0') > 9) return false;
  return true;
}

namespace tok_detail {

struct ScalarStop {
  size_t pos;     // where scanning stopped
  bool at_limit;  // true: stopped at limit between tokens; false: done (pos as scan_tokens returns)
};

// The scalar tokenizer: scans from p (which must not be inside a token
// unless it is that token's first byte), returns at the first token-search
// position >= limit, or when the text is exhausted.
template <class F>
ScalarStop scan_scalar(const unsigned char* const base, const unsigned char* const end, const unsigned char* p,
                       const unsigned char* const limit, bool at_end, std::string& norm, F& on_token) {
  for (;;) {
    // 1. The next token start.
    int wl;
    for (;;) {
      if (p >= limit) {
        if (p == end) return {static_cast<size_t>(end - base), false};
        return {static_cast<size_t>(p - base), true};
      }
      const uint8_t c = kClass[*p];
      if (c == kAlnum) {
        wl = 1;
        break;
      }
      if (c == kLead) {
        wl = multibyte_word_len(p, end);
        if (wl > 0) break;
        if (wl < 0 && !at_end) return {static_cast<size_t>(p - base), false};
      }
      ++p;
    }
    const unsigned char* const start = p;
    p += wl;
    bool rsquo = false;
    // 2. Its end.
    for (;;) {
      while (p != end && kClass[*p] == kAlnum) ++p;
      if (p == end) {
        if (!at_end) return {static_cast<size_t>(start - base), false};
        break;
      }
      const uint8_t c = kClass[*p];
      size_t alen;
      if (c == kLead) {
        wl = multibyte_word_len(p, end);
        if (wl > 0) {
          p += wl;
          continue;
        }
        if (wl < 0) {
          if (!at_end) return {static_cast<size_t>(start - base), false};
          break;
        }
        if (!is_rsquo(p, end)) break;
        alen = 3;
      } else if (c == kApos) {
        alen = 1;
      } else {
        break;
      }
      // An apostrophe: part of the token only when a word character follows.
      const unsigned char* const q = p + alen;
      if (q == end) {
        if (!at_end) return {static_cast<size_t>(start - base), false};
        break;
      }
      wl = word_char_len(q, end);
      if (wl > 0) {
        rsquo |= alen == 3;
        p = q + wl;
        continue;
      }
      if (wl < 0 && !at_end) return {static_cast<size_t>(start - base), false};
      break;
    }
    const size_t off = static_cast<size_t>(start - base);
    if (!rsquo) {
      on_token(std::string_view(reinterpret_cast<const char*>(start), static_cast<size_t>(p - start)), off);
    } else {
      norm.clear();
      for (const unsigned char* t = start; t != p;) {
        if (is_rsquo(t, p)) {
          norm.push_back('\'');
          t += 3;
        } else {
          norm.push_back(static_cast<char>(*t++));
        }
      }
      on_token(std::string_view(norm), off);
    }
  }
}

// The ways to classify a 64-byte block. The default build is for any
// x86-64 (SSE2 only); the best way the CPU running it has is picked at run
// time, so one binary serves every node and still uses AVX2 or AVX-512
// where they are.
enum class BlockIsa { scalar, sse2, avx2, avx512bw };

#if defined(__x86_64__)
#define SPELLCHECK_TOKENIZER_SIMD 1
// Bit i of the masks describes byte p[i], i < 64: alnum (A-Z a-z 0-9),
// apostrophe, and high (>= 0x80). A byte is in [lo, lo + n] when its
// distance from lo, unsigned, is its own minimum with n.
inline void block_masks_sse2(const unsigned char* p, uint64_t& alnum, uint64_t& apos, uint64_t& high,
                             uint64_t& digits) noexcept {
  alnum = apos = high = digits = 0;
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i x = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    const __m128i alpha = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(25)), x);
    const __m128i y = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    const __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(y, _mm_set1_epi8(9)), y);
    const int shift = 16 * k;
    alnum |= uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(_mm_or_si128(alpha, digit)))} << shift;
    digits |= uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(digit))} << shift;
    apos |= uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\''))))} << shift;
    high |= uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(v))} << shift;
  }
}

[[gnu::target("avx2")]] inline void block_masks_avx2(const unsigned char* p, uint64_t& alnum, uint64_t& apos,
                                                     uint64_t& high, uint64_t& digits) noexcept {
  uint64_t a[2], q[2], h[2], d[2];
  for (int k = 0; k < 2; ++k) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32 * k));
    const __m256i x = _mm256_sub_epi8(_mm256_or_si256(v, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('a'));
    const __m256i alpha = _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8(25)), x);
    const __m256i y = _mm256_sub_epi8(v, _mm256_set1_epi8('0'));
    const __m256i digit = _mm256_cmpeq_epi8(_mm256_min_epu8(y, _mm256_set1_epi8(9)), y);
    a[k] = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_or_si256(alpha, digit)));
    d[k] = static_cast<uint32_t>(_mm256_movemask_epi8(digit));
    q[k] = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\''))));
    h[k] = static_cast<uint32_t>(_mm256_movemask_epi8(v));
  }
  alnum = a[0] | (a[1] << 32);
  apos = q[0] | (q[1] << 32);
  high = h[0] | (h[1] << 32);
  digits = d[0] | (d[1] << 32);
}

[[gnu::target("avx512bw")]] inline void block_masks_avx512bw(const unsigned char* p, uint64_t& alnum, uint64_t& apos,
                                                             uint64_t& high, uint64_t& digits) noexcept {
  const __m512i v = _mm512_loadu_si512(static_cast<const void*>(p));
  const __m512i lower = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
  const __mmask64 alpha = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(lower, _mm512_set1_epi8('a')), _mm512_set1_epi8(26));
  const __mmask64 digit = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('0')), _mm512_set1_epi8(10));
  alnum = alpha | digit;
  digits = digit;
  apos = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\''));
  high = _mm512_movepi8_mask(v);
}

// The best way this CPU has (libgcc checks that the OS saves the vector
// registers too).
inline BlockIsa best_block_isa() noexcept {
  static const BlockIsa best = __builtin_cpu_supports("avx512bw") ? BlockIsa::avx512bw
                               : __builtin_cpu_supports("avx2")   ? BlockIsa::avx2
                                                                  : BlockIsa::sse2;
  return best;
}
#else
inline BlockIsa best_block_isa() noexcept { return BlockIsa::scalar; }
#endif

inline bool cpu_has(BlockIsa isa) noexcept { return static_cast<int>(isa) <= static_cast<int>(best_block_isa()); }

// scan_tokens with one way of classifying blocks; inlined into a function
// compiled for that instruction set (below), so the block classifier and
// on_token inline into one loop. kSkipDigits: tokens holding an ASCII digit
// are counted in *skipped instead of handed on (--filter digits), decided
// from the blocks' digit masks.
template <BlockIsa isa, bool kSkipDigits, class F>
[[gnu::always_inline]] inline size_t scan_tokens_on(std::string_view text, bool at_end, F& on_token,
                                                    uint64_t* skipped) {
  const auto* const base = reinterpret_cast<const unsigned char*>(text.data());
  const auto* const end = base + text.size();
  const unsigned char* p = base;
  std::string norm;                          // tokens with U+2019 apostrophes (rare)
  bool in_tok = false;                       // a token runs through p - 1 ...
  const unsigned char* tok_start = nullptr;  // ... from here
  // The scalar code's tokens (blocks with non-ASCII bytes, the tail).
  auto checked = [&](std::string_view tok, size_t off) {
    if constexpr (kSkipDigits) {
      if (has_ascii_digit(tok)) {
        ++*skipped;
        return;
      }
    }
    on_token(tok, off);
  };
#ifdef SPELLCHECK_TOKENIZER_SIMD
  auto emit = [&](const unsigned char* b, const unsigned char* e, bool digit) {
    if constexpr (kSkipDigits) {
      if (digit) {
        ++*skipped;
        return;
      }
    }
    on_token(std::string_view(reinterpret_cast<const char*>(b), static_cast<size_t>(e - b)),
             static_cast<size_t>(b - base));
  };
  bool tok_digit = false;  // the open token holds a digit
  while (isa != BlockIsa::scalar && end - p > 64) {
    uint64_t alnum, apos, high, digits;
    if constexpr (isa == BlockIsa::avx512bw) block_masks_avx512bw(p, alnum, apos, high, digits);
    else if constexpr (isa == BlockIsa::avx2) block_masks_avx2(p, alnum, apos, high, digits);
    else block_masks_sse2(p, alnum, apos, high, digits);
    if (high != 0 || (apos >> 63) != 0) {
      const ScalarStop r = scan_scalar(base, end, in_tok ? tok_start : p, p + 64, at_end, norm, checked);
      if (!r.at_limit) return r.pos;
      p = base + r.pos;
      in_tok = false;
      continue;
    }
    uint64_t w = alnum | (apos & ((alnum << 1) | (in_tok ? 1 : 0)) & (alnum >> 1));
    if (in_tok) {
      const uint64_t nw = ~w;
      if (nw == 0) {
        tok_digit |= digits != 0;
        p += 64;
        continue;
      }
      const int e = std::countr_zero(nw);
      emit(tok_start, p + e, tok_digit || (digits & ((uint64_t{1} << e) - 1)) != 0);
      in_tok = false;
      w &= ~uint64_t{0} << e;
    }
    while (w != 0) {
      const int b = std::countr_zero(w);
      const uint64_t rest = ~(w >> b);
      const int e = rest == 0 ? 64 : b + std::countr_zero(rest);
      if (e >= 64) {
        in_tok = true;
        tok_start = p + b;
        tok_digit = (digits >> b) != 0;
        break;
      }
      emit(p + b, p + e, (digits & ((uint64_t{1} << e) - 1) & (~uint64_t{0} << b)) != 0);
      w &= ~uint64_t{0} << e;
    }
    p += 64;
  }
#endif
  return scan_scalar(base, end, in_tok ? tok_start : p, end, at_end, norm, checked).pos;
}

#ifdef SPELLCHECK_TOKENIZER_SIMD
template <bool kSkipDigits, class F>
[[gnu::target("avx512bw")]] size_t scan_tokens_avx512bw(std::string_view text, bool at_end, F& on_token,
                                                        uint64_t* skipped) {
  return scan_tokens_on<BlockIsa::avx512bw, kSkipDigits>(text, at_end, on_token, skipped);
}
template <bool kSkipDigits, class F>
[[gnu::target("avx2")]] size_t scan_tokens_avx2(std::string_view text, bool at_end, F& on_token, uint64_t* skipped) {
  return scan_tokens_on<BlockIsa::avx2, kSkipDigits>(text, at_end, on_token, skipped);
}
#endif

template <bool kSkipDigits, class F>
size_t scan_tokens_isa(BlockIsa isa, std::string_view text, bool at_end, F& on_token, uint64_t* skipped) {
  switch (isa) {
#ifdef SPELLCHECK_TOKENIZER_SIMD
    case BlockIsa::avx512bw: return scan_tokens_avx512bw<kSkipDigits>(text, at_end, on_token, skipped);
    case BlockIsa::avx2: return scan_tokens_avx2<kSkipDigits>(text, at_end, on_token, skipped);
    case BlockIsa::sse2: return scan_tokens_on<BlockIsa::sse2, kSkipDigits>(text, at_end, on_token, skipped);
#endif
    default: return scan_tokens_on<BlockIsa::scalar, kSkipDigits>(text, at_end, on_token, skipped);
  }
}

}  // namespace tok_detail

// scan_tokens with a given way of classifying blocks (which the CPU must
// have: tok_detail::cpu_has), for tests and benchmarks.
template <class F>
size_t scan_tokens_with(tok_detail::BlockIsa isa, std::string_view text, bool at_end, F&& on_token) {
  return tok_detail::scan_tokens_isa<false>(isa, text, at_end, on_token, nullptr);
}

// scan_tokens_with, but tokens holding an ASCII digit (19xx, x86, mp3) are
// counted in `skipped`, not handed to on_token (--filter digits).
template <class F>
size_t scan_tokens_skipping_digits_with(tok_detail::BlockIsa isa, std::string_view text, bool at_end, F&& on_token,
                                        uint64_t& skipped) {
  return tok_detail::scan_tokens_isa<true>(isa, text, at_end, on_token, &skipped);
}

// Scans text for tokens; on_token(std::string_view token, size_t offset) is
// called for each, in order, with offset = position of the token's first byte
// in text. The view is valid during the call only. See the file comment for
// at_end; returns text.size() when at_end.
//
// On x86-64, 64-byte blocks of pure ASCII go through bit masks (a token is a
// run of alnum bits, an apostrophe joins when both neighbours are alnum),
// with SSE2, AVX2 or AVX-512 as the CPU has them; a block with a byte >=
// 0x80, or ending in an apostrophe, goes through the scalar code.
template <class F>
size_t scan_tokens(std::string_view text, bool at_end, F&& on_token) {
  return scan_tokens_with(tok_detail::best_block_isa(), text, at_end, on_token);
}

// scan_tokens without the tokens holding a digit, counted in `skipped`.
template <class F>
size_t scan_tokens_skipping_digits(std::string_view text, bool at_end, F&& on_token, uint64_t& skipped) {
  return scan_tokens_skipping_digits_with(tok_detail::best_block_isa(), text, at_end, on_token, skipped);
}

// All tokens of a complete text.
template <class F>
void for_each_token(std::string_view text, F&& on_token) {
  scan_tokens(text, true, on_token);
}

// For tokens too long to buffer: text continues an open token right after
// one of its word characters. Scans to the token's end: returns {true, n}
// when it ends at offset n, or (only when !at_end) {false, n} when fewer than
// 8 bytes are left undecided: resume at n with more bytes appended. Clears
// digits_only when the tail holds anything but ASCII digits.
struct TailScan {
  bool ended;
  size_t pos;
};
inline TailScan scan_token_tail(std::string_view text, bool at_end, bool& digits_only) noexcept {
  using namespace tok_detail;
  const auto* const base = reinterpret_cast<const unsigned char*>(text.data());
  const auto* const end = base + text.size();
  const unsigned char* p = base;
  for (;;) {
    if (!at_end && end - p < 8) return {false, static_cast<size_t>(p - base)};
    if (p == end) return {true, text.size()};
    int wl = word_char_len(p, end);
    if (wl > 0) {
      if (static_cast<unsigned char>(*p - '0') > 9) digits_only = false;
      p += wl;
      continue;
    }
    const size_t alen = *p == '\'' ? 1 : is_rsquo(p, end) ? 3 : 0;
    if (alen == 0 || p + alen == end) return {true, static_cast<size_t>(p - base)};
    wl = word_char_len(p + alen, end);
    if (wl <= 0) return {true, static_cast<size_t>(p - base)};
    digits_only = false;
    p += alen + static_cast<size_t>(wl);
  }
}

// Token statistics (count-misspelled's words / numbers_skipped /
// too_long_skipped). tokens counts the words kept.
struct TokenCounts {
  uint64_t tokens = 0;
  uint64_t skipped_numbers = 0;
  uint64_t skipped_long = 0;
  TokenCounts& operator+=(const TokenCounts& o) {
    tokens += o.tokens;
    skipped_numbers += o.skipped_numbers;
    skipped_long += o.skipped_long;
    return *this;
  }
};

// Applies the SPEC's skip rules to one token: digits-only tokens and tokens
// longer than max_word_length bytes are counted as skipped; returns true when
// the token is a word to judge (and counts it).
inline bool keep_token(std::string_view tok, size_t max_word_length, TokenCounts& counts) noexcept {
  if (static_cast<unsigned char>(tok[0] - '0') <= 9 && is_ascii_number(tok)) {
    ++counts.skipped_numbers;
    return false;
  }
  if (tok.size() > max_word_length) {
    ++counts.skipped_long;
    return false;
  }
  ++counts.tokens;
  return true;
}

// for_each_token, keeping only words: on_word(word, offset) for every token
// that passes keep_token.
template <class F>
void for_each_word(std::string_view text, size_t max_word_length, TokenCounts& counts, F&& on_word) {
  scan_tokens(text, true, [&](std::string_view tok, size_t off) {
    if (keep_token(tok, max_word_length, counts)) on_word(tok, off);
  });
}

// Convenience (tests, small inputs): every token of text, in order.
std::vector<std::string> tokenize(std::string_view text);

}  // namespace spellcheck
