#include "spellcheck/input/detail/url_filter.hpp"

#include <array>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "spellcheck/input/tokenizer.hpp"

namespace spellcheck {

namespace {

// Bytes of a run: ASCII letters and digits, every byte of a multi-byte
// character, and hunspell's URL punctuation (with '=', '&', '#', '+' and
// '@', which query strings and addresses hold).
constexpr std::array<bool, 256> make_run_table() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[static_cast<size_t>(c)] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
  for (const char c : std::string_view("-_\\.:/~%*$[]?!'@=&#+")) t[static_cast<unsigned char>(c)] = true;
  return t;
}
inline constexpr std::array<bool, 256> kRun = make_run_table();

// A run starts at a word character or '/'.
bool starts_run(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80 || c == '/';
}

// The first byte at or after i that can make a run a URL: '@', ':' or '/'.
// Found a vector at a time, with the widest vectors the CPU has (as the
// tokenizer picks them): prose has few of these bytes, so this scan is most
// of the filter's cost.
size_t next_sign_scalar(const unsigned char* p, size_t i, size_t n) {
  for (; i < n; ++i)
    if (p[i] == '@' || p[i] == ':' || p[i] == '/') return i;
  return n;
}

#if defined(__x86_64__)
size_t next_sign_sse2(const unsigned char* p, size_t i, size_t n) {
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('@')), _mm_cmpeq_epi8(v, _mm_set1_epi8(':'))),
                     _mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
    if (const int m = _mm_movemask_epi8(hit)) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(m)));
  }
  return next_sign_scalar(p, i, n);
}

[[gnu::target("avx2")]] size_t next_sign_avx2(const unsigned char* p, size_t i, size_t n) {
  for (; i + 32 <= n; i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const __m256i hit = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('@')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8(':'))),
        _mm256_cmpeq_epi8(v, _mm256_set1_epi8('/')));
    if (const unsigned m = static_cast<unsigned>(_mm256_movemask_epi8(hit)))
      return i + static_cast<size_t>(__builtin_ctz(m));
  }
  return next_sign_scalar(p, i, n);
}

[[gnu::target("avx512bw")]] size_t next_sign_avx512bw(const unsigned char* p, size_t i, size_t n) {
  for (; i + 64 <= n; i += 64) {
    const __m512i v = _mm512_loadu_si512(static_cast<const void*>(p + i));
    const __mmask64 hit = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('@')) |
                          _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(':')) |
                          _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('/'));
    if (hit) return i + static_cast<size_t>(__builtin_ctzll(hit));
  }
  return next_sign_scalar(p, i, n);
}
#endif

using SignFinder = size_t (*)(const unsigned char*, size_t, size_t);

SignFinder best_sign_finder() {
#if defined(__x86_64__)
  switch (tok_detail::best_block_isa()) {
    case tok_detail::BlockIsa::avx512bw: return next_sign_avx512bw;
    case tok_detail::BlockIsa::avx2: return next_sign_avx2;
    default: return next_sign_sse2;
  }
#else
  return next_sign_scalar;
#endif
}

// True when the run byte at p[i] (i < n) makes its run a URL: '@', "://"
// or ":\".
bool url_sign_at(const unsigned char* p, size_t i, size_t n) {
  if (p[i] == '@') return true;
  if (p[i] != ':' || i + 1 >= n) return false;
  return p[i + 1] == '\\' || (p[i + 1] == '/' && i + 2 < n && p[i + 2] == '/');
}

class UrlFilter final : public MarkupFilter {
 public:
  size_t filter(unsigned char* buf, size_t n, bool at_end) override {
    size_t i = 0;  // bytes before i are decided
    if (open_) {
      i = run_end(buf, 0, n, open_url_);
      if (open_url_) std::memset(buf, ' ', i);
      if (i == n && !at_end) return n;
      open_ = false;
    }
    for (;;) {
      const size_t sign = next_sign_(buf, i, n);
      if (sign == n) return hold_open_run(buf, i, n, at_end);
      const size_t start = run_start(buf, i, sign);
      if (start == sign && !starts_run(buf[sign])) {  // a sign outside any run ("a : b")
        i = sign + 1;
        continue;
      }
      bool url = buf[start] == '/';
      const size_t end = run_end(buf, start, n, url);
      if (end == n && !at_end && end - start <= kMarkupMaxHeld) return start;  // the run may go on
      if (url) std::memset(buf + start, ' ', end - start);
      if (end == n) {
        // Too long to hold: what is decided stays so, the rest of the run
        // is judged as it comes.
        open_ = !at_end;
        open_url_ = url;
        return n;
      }
      i = end;
    }
  }

 private:
  const SignFinder next_sign_ = best_sign_finder();
  bool open_ = false;      // the last piece ended inside a run too long to hold
  bool open_url_ = false;  // ... which is a URL

  // The end of the run going on at `from`; url set when it shows a URL sign.
  static size_t run_end(const unsigned char* buf, size_t from, size_t n, bool& url) {
    size_t end = from;
    for (; end < n && kRun[buf[end]]; ++end) url = url || url_sign_at(buf, end, n);
    return end;
  }

  // Where the run holding byte `at` starts, looking back no further than
  // `from` (everything before was decided): after the last byte that is not
  // a run byte, then on to the first that starts a run.
  static size_t run_start(const unsigned char* buf, size_t from, size_t at) {
    size_t s = at;
    while (s > from && kRun[buf[s - 1]]) --s;
    while (s < at && !starts_run(buf[s])) ++s;
    return s;
  }

  // No sign in [i, n): a run still open at n is held back (a sign may come
  // in the next piece), unless it is too long to hold.
  size_t hold_open_run(const unsigned char* buf, size_t i, size_t n, bool at_end) {
    if (at_end || n == i || !kRun[buf[n - 1]]) return n;
    const size_t start = run_start(buf, i, n - 1);
    if (n - start <= kMarkupMaxHeld) return start;
    open_ = true;
    open_url_ = false;
    return n;
  }
};

}  // namespace

std::unique_ptr<MarkupFilter> make_url_filter() { return std::make_unique<UrlFilter>(); }

}  // namespace spellcheck
